import { AlertTriangle, RadioTower } from 'lucide-react';
import { useEffect, useReducer } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { useRealtime, useRealtimeMessages } from '@/lib/realtime.tsx';
import {
  type FleetCondition,
  type FleetStateName,
  fleetHeadline,
} from '../../../../common/fleet-condition.ts';
import { clockTime } from '../../../../common/order-texts.ts';

/*
 * The fleet's one state (common/fleet-condition.ts) as the admin socket's system_health carries it:
 * what the sidebar badge, the Live Monitoring banner and the dashboard's fleet card say.
 */

/** How often a silent fleet's headline moves on ("for 45 s", "for 2 min"). */
const SILENCE_TICK_MS = 1000;

export interface FleetView {
  condition: FleetCondition;
  /** The state in one sentence, the last-heard time in this browser's zone. */
  headline: string;
}

/**
 * The fleet's state as the server last pushed it; null while the socket is not connected (a stale
 * state must not pass for the current one) or before the first system_health. While the fleet is
 * down the headline is told again every second, measured on the server's clock.
 */
export function useFleetCondition(): FleetView | null {
  const { status, systemHealth, serverTimeOffset } = useRealtime();
  const condition = status === 'connected' ? (systemHealth?.fleet ?? null) : null;
  const silent = condition?.state === 'down' && condition.lastHeardAt !== null;
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!silent) return;
    const timer = setInterval(tick, SILENCE_TICK_MS);
    return () => clearInterval(timer);
  }, [silent]);
  if (!condition) return null;
  return {
    condition,
    headline: fleetHeadline(condition, Date.now() + serverTimeOffset, (iso) => clockTime(iso)),
  };
}

/**
 * The shell's part: an emergency stop or resume (from any tab, any admin) changes the fleet's state
 * at once, so the state is asked for again when the socket says one happened.
 */
export function useFleetConditionFollowsEmergency(): void {
  const { requestSystemHealth } = useRealtime();
  useRealtimeMessages('emergency_control', () => requestSystemHealth());
}

/** Each state's colours: the pulse red of LIVE, amber for a warning, solid red for a dead fleet. */
export const FLEET_STATE_TONES: Record<FleetStateName, string> = {
  live: 'border-red-500/40 bg-red-500/15 text-red-400',
  degraded: 'border-amber-500/50 bg-amber-500/15 text-amber-300',
  stopped: 'border-amber-500/50 bg-amber-500/15 text-amber-300',
  down: 'border-red-600 bg-red-600 text-white',
};

const BANNER_TITLES: Record<'degraded' | 'down', string> = {
  degraded: 'The bot network is degraded',
  down: 'The bot network is down',
};

/**
 * Live Monitoring's banner while the fleet is degraded or down, with its headline ("No bot has
 * reported for 2 min — last heard 09:12 from ghost-07"). The emergency stop has its own banner
 * (EmergencyBanner: since when, by whom, why), so it shows nothing then, nor while live.
 */
export function FleetConditionBanner({ view }: { view: FleetView | null }) {
  const state = view?.condition.state;
  if (!view || (state !== 'degraded' && state !== 'down')) return null;
  const down = state === 'down';
  return (
    <Alert
      variant={down ? 'destructive' : 'default'}
      aria-label={BANNER_TITLES[state]}
      className={down ? 'border-red-600 bg-red-600/10' : 'border-amber-500/60 bg-amber-500/10 text-amber-200'}
    >
      {down ? <RadioTower className="h-4 w-4" /> : <AlertTriangle className="h-4 w-4 text-amber-300" />}
      <AlertTitle>{BANNER_TITLES[state]}</AlertTitle>
      <AlertDescription>{view.headline}</AlertDescription>
    </Alert>
  );
}
