import { RefreshCw, Wifi, WifiOff } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/cn.ts';
import { type ConnectionStatus, useRealtime } from '@/lib/realtime.tsx';

/** The spec's badge labels for the four connection states. */
export const CONNECTION_LABELS: Record<ConnectionStatus, string> = {
  connected: 'Connected',
  connecting: 'Connecting',
  disconnected: 'Disconnected',
  error: 'Error',
};

const BADGE_CLASSES: Record<ConnectionStatus, string> = {
  connected: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  connecting: 'border-amber-500/40 bg-amber-500/15 text-amber-300',
  disconnected: 'border-border bg-muted text-muted-foreground',
  error: 'border-red-500/40 bg-red-500/15 text-red-400',
};

/** A badge naming the socket's state (Connected, Connecting, Disconnected, Error). */
export function ConnectionBadge({ status, className }: { status: ConnectionStatus; className?: string }) {
  const Icon = status === 'connected' || status === 'connecting' ? Wifi : WifiOff;
  return (
    <Badge variant="outline" className={cn(BADGE_CLASSES[status], className)} data-status={status}>
      <Icon className={cn('h-3 w-3', status === 'connecting' && 'animate-pulse')} />
      {CONNECTION_LABELS[status]}
    </Badge>
  );
}

/** The shell's real-time indicator: the state badge, and a reconnect button when not connected. */
export function RealtimeStatus({ className }: { className?: string }) {
  const { status, reconnect } = useRealtime();
  return (
    // Wraps: beside 'Disconnected', Reconnect goes on a line of its own rather than past the sidebar's edge.
    <div className={cn('flex flex-wrap items-center justify-between gap-x-2 gap-y-1', className)}>
      <div className="flex items-center gap-2 text-xs text-muted-foreground">
        <span className="whitespace-nowrap">Real-time</span>
        <ConnectionBadge status={status} />
      </div>
      {status !== 'connected' && (
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-xs"
          onClick={reconnect}
          disabled={status === 'connecting'}
        >
          <RefreshCw />
          Reconnect
        </Button>
      )}
    </div>
  );
}
