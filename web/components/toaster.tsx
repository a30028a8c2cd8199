import { type ComponentType, useEffect, useState } from 'react';
import { type ToastData, useToasts } from '@/lib/toast.ts';

type ToastListComponent = ComponentType<{ toasts: ToastData[] }>;

let toastList: ToastListComponent | null = null;
let inFlight: Promise<void> | null = null;

/**
 * Fetches the toast code ahead of the first toast (the admin console does, so a toast raised during
 * an outage still shows). A failed fetch is not final: the next toast tries again.
 */
export function preloadToaster(): Promise<void> {
  if (toastList) return Promise.resolve();
  inFlight ??= import('./toast-list.tsx').then(
    (module) => {
      toastList = module.ToastList;
      inFlight = null;
    },
    () => {
      inFlight = null;
    },
  );
  return inFlight;
}

/**
 * Renders the toast queue; mounted once at the root. Radix's toast code is fetched with the first
 * toast (a copy on the buyer page, a save in the console), so a visit that shows none never loads it.
 */
export function Toaster() {
  const toasts = useToasts();
  const [List, setList] = useState<ToastListComponent | null>(() => toastList);
  useEffect(() => {
    if (List || toasts.length === 0) return;
    let mounted = true;
    void preloadToaster().then(() => {
      if (mounted && toastList) setList(() => toastList);
    });
    return () => {
      mounted = false;
    };
  }, [List, toasts]);
  return List ? <List toasts={toasts} /> : null;
}
