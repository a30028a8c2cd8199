import type { Generated } from 'kysely';

/** An operator alert raised (and queued for every alerts destination): the history. */
export interface OperatorAlertsTable {
  id: Generated<number>;
  /** 'fleet' | 'payments' | 'notifications' | 'disk' */
  kind: string;
  /** The state it changed to, and the one alerted before. */
  state: string;
  previous_state: string;
  /** 'critical' | 'warning' | 'ok' */
  severity: string;
  title: string;
  message: string;
  raised_at: number;
}

/**
 * Per alert kind: the state last alerted, and the differing state being watched (the hysteresis).
 * Every write is conditional on `version`, so of two instances (or a restart racing its old self)
 * only one raises a change.
 */
export interface OperatorAlertStatesTable {
  /** An alert kind, or 'alert-destinations' (logged, not sent). */
  kind: string;
  alerted_state: string;
  alerted_at: number;
  /** The latest state seen that differs from alerted_state; null while they agree. */
  observed_state: string | null;
  /** Since when every look has differed from alerted_state; null while they agree. */
  diverged_since: number | null;
  version: number;
  /** The latest look that wrote (a divergence whose latest look is old starts again). */
  updated_at: number;
}
