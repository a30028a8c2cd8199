import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import { FLEET_STATE_LABELS, type FleetStateName } from '../../../../common/fleet-condition.ts';
import { FLEET_STATE_TONES, type FleetView } from '../shared/fleet-condition.tsx';

const BADGE_CLASS = 'px-1.5 py-0 text-[10px]';

/**
 * The sidebar's badge on Live Monitoring: the fleet's state (common/fleet-condition.ts). It pulses
 * LIVE only while the fleet is live; DEGRADED, DOWN and STOPPED otherwise. Before the state is known
 * (the socket not connected) it says LIVE, still, without the pulse: the screen's name, not a claim.
 */
export function FleetStateBadge({ view }: { view: FleetView | null }) {
  if (!view) {
    return (
      <Badge
        variant="outline"
        className={cn(BADGE_CLASS, 'border-zinc-500/40 text-zinc-300')}
        data-testid="fleet-state-badge"
        title="The fleet's state is not known: the real-time connection is not up"
      >
        LIVE
      </Badge>
    );
  }
  const state: FleetStateName = view.condition.state;
  return (
    <Badge
      variant="outline"
      className={cn(BADGE_CLASS, FLEET_STATE_TONES[state])}
      title={view.headline}
      data-testid="fleet-state-badge"
    >
      <span
        aria-hidden="true"
        className={cn(
          'h-1.5 w-1.5',
          state === 'live' ? 'animate-pulse rounded-full bg-red-500' : 'rounded-sm bg-current',
        )}
      />
      {FLEET_STATE_LABELS[state]}
    </Badge>
  );
}
