import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw, WifiOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/cn.ts';
import { ADMIN_SESSION_KEY } from '../shared/admin-session.ts';

export const SERVER_UNREACHABLE_TEXT = 'Server unreachable — retrying…';

/**
 * Says the server stopped answering while the console stays as it was (edits included); the
 * session check repeats on its own and the banner goes once it answers. "Retry now" checks at once.
 */
export function ServerUnreachableBanner({ className }: { className?: string }) {
  const queryClient = useQueryClient();
  const retry = () => void queryClient.refetchQueries({ queryKey: ADMIN_SESSION_KEY });
  return (
    <div
      role="alert"
      className={cn(
        'flex items-center gap-3 border-b border-amber-500/40 bg-amber-950 px-4 py-2 text-sm text-amber-100',
        className,
      )}
    >
      <WifiOff className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span className="flex-1">{SERVER_UNREACHABLE_TEXT}</span>
      <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={retry}>
        <RefreshCw />
        Retry now
      </Button>
    </div>
  );
}

/**
 * When the server answers again, screens whose last fetch failed meanwhile fetch again, instead
 * of showing their failure until the next poll or a manual refresh.
 */
export function useRefetchFailedAfterOutage(offline: boolean): void {
  const queryClient = useQueryClient();
  const wasOffline = useRef(offline);
  useEffect(() => {
    if (wasOffline.current && !offline) {
      void queryClient.refetchQueries({
        type: 'active',
        predicate: (query) => query.state.status === 'error',
      });
    }
    wasOffline.current = offline;
  }, [offline, queryClient]);
}
