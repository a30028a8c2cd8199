import { useQueryClient } from '@tanstack/react-query';
import { CloudOff, RefreshCw } from 'lucide-react';
import { type ComponentType, lazy, useEffect, useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button.tsx';

/** How often a screen whose code could not be fetched tries again on its own (as the session check does). */
export const SCREEN_RETRY_MS = 5_000;

export const WAITING_FOR_SERVER_TEXT = 'Waiting for the server to load this screen…';

type ScreenModule = { default: ComponentType };

type ChunkState =
  | { status: 'idle' }
  | { status: 'loading'; settled: Promise<void> }
  | { status: 'loaded'; Screen: ComponentType }
  | { status: 'failed' };

export interface LazyScreen {
  /** Renders the screen; suspends (Suspense fallback) while its code is first fetched. */
  Screen: ComponentType;
  /** Fetches the screen's code ahead of a visit; a failure is not final (see lazyScreen). */
  preload: () => Promise<void>;
}

/**
 * A screen whose code is fetched on demand, like React.lazy, except that a failed fetch is not
 * final. React.lazy keeps a rejected import for good, so a screen first opened while the server
 * was down stayed "Page Error" until a reload. Here a failure shows a quiet waiting state in the
 * screen's place and the fetch is tried again when the server answers (any API call succeeding,
 * e.g. the shell's session check) and every SCREEN_RETRY_MS; the screen then renders in place.
 * The browser does not keep a failed module fetch, so importing the same chunk again fetches it.
 */
export function lazyScreen(load: () => Promise<ScreenModule>): LazyScreen {
  let state: ChunkState = { status: 'idle' };
  const listeners = new Set<() => void>();
  const setState = (next: ChunkState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  let inFlight: Promise<void> | null = null;

  /** One fetch at a time; a failure after the first load keeps the waiting state (no loader flicker). */
  const fetchChunk = (): Promise<void> => {
    if (state.status === 'loaded') return Promise.resolve();
    inFlight ??= load().then(
      (module) => {
        inFlight = null;
        setState({ status: 'loaded', Screen: module.default });
      },
      () => {
        inFlight = null;
        setState({ status: 'failed' });
      },
    );
    return inFlight;
  };

  const preload = (): Promise<void> => {
    if (state.status === 'idle') state = { status: 'loading', settled: fetchChunk() };
    return state.status === 'loading' ? state.settled : fetchChunk();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const snapshot = () => state;
  // Suspends (React.lazy, so Suspense shows its fallback) until the first fetch settles; by then
  // the store holds the outcome and Screen renders that instead.
  const FirstFetch = lazy(async () => {
    await preload();
    return { default: () => null };
  });

  function Screen() {
    const current = useSyncExternalStore(subscribe, snapshot, snapshot);
    if (current.status === 'loaded') return <current.Screen />;
    if (current.status === 'failed') return <WaitingForServer retry={fetchChunk} />;
    return <FirstFetch />;
  }

  return { Screen, preload };
}

/**
 * The screen's place while its code cannot be fetched: the shell's outage banner says why, so this
 * stays quiet. Tries again whenever an API call succeeds (the server answers) and on a timer.
 */
function WaitingForServer({ retry }: { retry: () => Promise<void> }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => void retry(), SCREEN_RETRY_MS);
    const onOnline = () => void retry();
    window.addEventListener('online', onOnline);
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') void retry();
    });
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
      unsubscribe();
    };
  }, [queryClient, retry]);

  return (
    <div
      role="status"
      className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-center text-muted-foreground"
    >
      <CloudOff className="h-6 w-6" aria-hidden="true" />
      <p className="text-sm">{WAITING_FOR_SERVER_TEXT}</p>
      {/* An escape for the rare case a retry cannot succeed (e.g. the app was redeployed meanwhile). */}
      <Button variant="ghost" size="sm" onClick={() => window.location.reload()}>
        <RefreshCw aria-hidden="true" />
        Reload Page
      </Button>
    </div>
  );
}
