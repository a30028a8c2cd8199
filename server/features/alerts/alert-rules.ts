import type { AlertSeverity } from '../../../common/notifications.ts';

/*
 * The hysteresis, as a pure rule: per alert kind the state last alerted is stored; a look that sees
 * another state starts (or continues) a divergence, and only a divergence that held for the check's
 * hold time on every look raises one alert, of the state seen then. A look that sees the alerted
 * state again ends the divergence, so a flapping fleet says nothing until it settles.
 */

/** What an alert says: its title, its sentence and its colour. */
export interface AlertWords {
  title: string;
  message: string;
  severity: AlertSeverity;
}

/** What a check saw now, and what it would say should this be alerted after `previous`. */
export interface Observation {
  state: string;
  words(previous: string): Promise<AlertWords> | AlertWords;
}

/** One thing the alert monitor watches (Uptime Kuma registers each monitor type in one list). */
export interface AlertCheck {
  /** The alert kind (common/notifications.ts ALERT_KINDS), or 'alert-destinations' (logged). */
  kind: string;
  /** 'outbox': sent to the alerts destinations; 'log': written to the log (an alerts destination failing cannot be told through itself). */
  sink: 'outbox' | 'log';
  /** The state that needs no alert, assumed alerted before the first look (so the start alerts only what is bad). */
  goodState: string;
  /** How long (ms) a move from `alerted` to `observed` must hold before it is alerted. */
  holdMs(alerted: string, observed: string): number;
  /** The state now, given the state alerted (null before the first look); null: nothing to judge now. */
  observe(alerted: string | null): Promise<Observation | null>;
}

/** A kind's stored state (operator_alert_states). */
export interface StoredAlertState {
  alertedState: string;
  observedState: string | null;
  divergedSince: number | null;
  version: number;
  updatedAt: number;
}

export type Decision =
  /** Nothing to write: the look agrees with what was alerted. */
  | { type: 'none' }
  /** The divergence ended (the alerted state is back before its hold ran out). */
  | { type: 'settle' }
  /** A divergence starts or goes on, since `since`. */
  | { type: 'watch'; since: number }
  /** The divergence held long enough: alert the state seen now. */
  | { type: 'raise' };

/**
 * What a look at `now` seeing `observed` does to `stored`. `holdMs` is how long this move must hold;
 * `staleMs`: a divergence whose latest look is older than this (the monitor was away) starts again
 * rather than counting the time nobody looked.
 */
export function decide(
  stored: StoredAlertState,
  observed: string,
  now: number,
  holdMs: number,
  staleMs: number,
): Decision {
  if (observed === stored.alertedState) {
    return stored.divergedSince === null ? { type: 'none' } : { type: 'settle' };
  }
  const continues = stored.divergedSince !== null && now - stored.updatedAt <= staleMs;
  const since = continues ? (stored.divergedSince as number) : now;
  if (now - since >= holdMs) return { type: 'raise' };
  return { type: 'watch', since };
}

/** Severity of the fleet's states: live, then degraded, then down. */
const FLEET_RANK: Record<string, number> = { live: 0, degraded: 1, down: 2 };

/**
 * How long the fleet must hold a new state before it is alerted: an emergency stop or resume at
 * once (an admin did it; nothing flaps), a worse state after `raiseMs`, a better one after `clearMs`.
 */
export function fleetHoldMs(alerted: string, observed: string, raiseMs: number, clearMs: number): number {
  if (alerted === 'stopped' || observed === 'stopped') return 0;
  return (FLEET_RANK[observed] ?? 0) > (FLEET_RANK[alerted] ?? 0) ? raiseMs : clearMs;
}

/** A two-state kind (payments, notifications, disk): to the bad state after `raiseMs`, back after `clearMs`. */
export function twoStateHoldMs(
  goodState: string,
  observed: string,
  raiseMs: number,
  clearMs: number,
): number {
  return observed === goodState ? clearMs : raiseMs;
}
