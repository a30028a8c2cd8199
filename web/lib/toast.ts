import * as React from 'react';
import type { ToastVariant } from '@/components/ui/toast.tsx';

/** At most one toast is visible; a dismissed toast is removed after 5000 ms. */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 5000;

export interface ToastData {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: ToastVariant;
  /** ms it stays before closing by itself (Radix's 5000 by default); Infinity keeps it until dismissed. */
  duration?: number;
  open: boolean;
}

type Listener = (toasts: ToastData[]) => void;

let toasts: ToastData[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastData[]): void {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string): void {
  for (const t of toasts) if (!id || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (!id || t.id === id ? { ...t, open: false } : t)));
}

/** Shows a toast; the newest one replaces any visible one. */
export function toast(input: Omit<ToastData, 'id' | 'open'>): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/**
 * Changes a toast still on screen in place (a push's progress), restarting its timer when the
 * duration changes; answers false when it is gone (closed, or replaced by a newer one).
 */
export function updateToast(id: string, input: Omit<ToastData, 'id' | 'open'>): boolean {
  if (!toasts.some((t) => t.id === id && t.open)) return false;
  emit(toasts.map((t) => (t.id === id ? { ...t, ...input } : t)));
  return true;
}

export function useToasts(): ToastData[] {
  const [state, setState] = React.useState(toasts);
  React.useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}

/** A toast the spec writes as one line, "Title: description", split into the two parts it shows. */
export function specToast(text: `${string}: ${string}`): { title: string; description: string } {
  const colon = text.indexOf(': ');
  return { title: text.slice(0, colon), description: text.slice(colon + 2) };
}
