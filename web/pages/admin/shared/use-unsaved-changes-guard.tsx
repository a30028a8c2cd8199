import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useBlocker } from 'react-router';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import { buttonVariants } from '@/components/ui/button.tsx';
import { ADMIN_LOGIN_PATH } from './admin-session.ts';

/*
 * Unsaved edits are never lost silently. A screen with a draft calls useUnsavedChangesGuard(unsaved)
 * and renders the dialog it returns: while `unsaved` holds, leaving the screen inside the app (a
 * sidebar link, browser back) asks 'Leave without saving?' first, and closing or reloading the tab
 * makes the browser ask. A save that clears the draft clears `unsaved`, so nothing asks after it.
 */

export const LEAVE_TEXTS = {
  title: 'Leave without saving?',
  description: 'This page has changes that are not saved. Leaving now discards them.',
  tabDescription: 'This tab has changes that are not saved. Switching tabs discards them.',
  stay: 'Stay',
  leave: 'Leave',
} as const;

/** Guards the screen while `unsaved`; returns the question to render (closed until a navigation is blocked). */
export function useUnsavedChangesGuard(unsaved: boolean): ReactNode {
  // Only a change of screen leaves the edits behind; the login path is reached by signing out, which
  // asks on its own (useConfirmLeavingUnsavedWork), or when the session is gone anyway.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      currentLocation.pathname !== nextLocation.pathname &&
      nextLocation.pathname !== ADMIN_LOGIN_PATH,
  );
  useBeforeUnloadWarning(unsaved);
  useReportUnsavedWork(unsaved);

  return (
    <LeaveWithoutSavingDialog
      open={blocker.state === 'blocked'}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}

/** The question itself: Stay keeps the screen and its edits, Leave goes on. */
export function LeaveWithoutSavingDialog({
  open,
  onStay,
  onLeave,
  description = LEAVE_TEXTS.description,
}: {
  open: boolean;
  onStay: () => void;
  onLeave: () => void;
  /** What leaving discards, when it is less than the page (a tab). */
  description?: string;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && onStay()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{LEAVE_TEXTS.title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{LEAVE_TEXTS.stay}</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={onLeave}>
            {LEAVE_TEXTS.leave}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** While `active`, closing, reloading or leaving the tab for another site makes the browser ask. */
function useBeforeUnloadWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/*
 * Signing out leaves every screen at once, outside the router's blocker: the shell asks whether any
 * mounted screen holds unsaved work through this context.
 */

interface UnsavedWorkTracker {
  /** +1 when a screen starts holding unsaved work, -1 when it stops (or unmounts). */
  track(delta: 1 | -1): void;
}

const UnsavedWorkCountContext = createContext(0);
const UnsavedWorkTrackerContext = createContext<UnsavedWorkTracker | null>(null);

/** Counts the screens below holding unsaved work; the admin shell mounts it once. */
export function UnsavedWorkProvider({ children }: { children: ReactNode }) {
  const { count, tracker } = useUnsavedCounter();
  return (
    <UnsavedWorkTrackerContext.Provider value={tracker}>
      <UnsavedWorkCountContext.Provider value={count}>{children}</UnsavedWorkCountContext.Provider>
    </UnsavedWorkTrackerContext.Provider>
  );
}

function useReportUnsavedWork(unsaved: boolean): void {
  useTrackedWhile(useContext(UnsavedWorkTrackerContext), unsaved);
}

/** Counts one with `tracker` while `unsaved` holds (and the caller is mounted). */
function useTrackedWhile(tracker: UnsavedWorkTracker | null, unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved || !tracker) return;
    tracker.track(1);
    return () => tracker.track(-1);
  }, [unsaved, tracker]);
}

/** A counter of unsaved work: `unsaved` while anything counted holds some. */
function useUnsavedCounter(): { count: number; tracker: UnsavedWorkTracker } {
  const [count, setCount] = useState(0);
  const track = useCallback((delta: 1 | -1) => setCount((current) => current + delta), []);
  const tracker = useMemo(() => ({ track }), [track]);
  return { count, tracker };
}

/**
 * For an action that leaves every screen (signing out): `confirm(action)` runs it at once when
 * nothing is unsaved, else asks first; render `dialog`.
 */
export function useConfirmLeavingUnsavedWork(): { confirm: (action: () => void) => void; dialog: ReactNode } {
  const unsavedCount = useContext(UnsavedWorkCountContext);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const confirm = (action: () => void) => {
    if (unsavedCount > 0) setPending(() => action);
    else action();
  };
  const dialog = (
    <LeaveWithoutSavingDialog
      open={pending !== null}
      onStay={() => setPending(null)}
      onLeave={() => {
        pending?.();
        setPending(null);
      }}
    />
  );
  return { confirm, dialog };
}

/*
 * A screen whose edits live in several forms (System Configuration's tabs): each form reports its own
 * with useUnsavedEdits(unsaved) to the screen's counter (useUnsavedEditsCounter, handed down by
 * UnsavedEditsScope), and the screen guards while any form holds some. A form outside any scope
 * reports nothing.
 */

const UnsavedEditsContext = createContext<UnsavedWorkTracker | null>(null);

/** The screen's counter of forms holding unsaved edits; hand `tracker` to an UnsavedEditsScope. */
export function useUnsavedEditsCounter(): { unsaved: boolean; tracker: UnsavedWorkTracker } {
  const { count, tracker } = useUnsavedCounter();
  return { unsaved: count > 0, tracker };
}

/** The forms below report their unsaved edits to `tracker`. */
export function UnsavedEditsScope({
  tracker,
  children,
}: {
  tracker: UnsavedWorkTracker;
  children: ReactNode;
}) {
  return <UnsavedEditsContext.Provider value={tracker}>{children}</UnsavedEditsContext.Provider>;
}

/** A form says whether it holds unsaved edits, to the screen around it. */
export function useUnsavedEdits(unsaved: boolean): void {
  useTrackedWhile(useContext(UnsavedEditsContext), unsaved);
}

/**
 * Controlled tabs whose panels drop their forms' edits on leaving them (Radix unmounts an inactive
 * panel): while `unsaved`, a switch asks first. Spread `value` and `onValueChange` on the Tabs and
 * render `dialog`.
 */
export function useGuardedTabs(
  initial: string,
  unsaved: boolean,
): { value: string; onValueChange: (next: string) => void; dialog: ReactNode } {
  const [value, setValue] = useState(initial);
  const [pending, setPending] = useState<string | null>(null);
  const onValueChange = (next: string) => {
    if (unsaved && next !== value) setPending(next);
    else setValue(next);
  };
  const dialog = (
    <LeaveWithoutSavingDialog
      open={pending !== null}
      description={LEAVE_TEXTS.tabDescription}
      onStay={() => setPending(null)}
      onLeave={() => {
        if (pending !== null) setValue(pending);
        setPending(null);
      }}
    />
  );
  return { value, onValueChange, dialog };
}
