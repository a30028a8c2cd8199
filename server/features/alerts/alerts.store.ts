import type { OperatorAlert } from '../../../common/notifications.ts';
import type { Db } from '../../db/index.ts';
import type { StoredAlertState } from './alert-rules.ts';

/* The alert monitor's SQL: each kind's stored state (every change conditional on its version), and the alerts raised. */

export async function findAlertState(db: Db, kind: string): Promise<StoredAlertState | null> {
  const row = await db
    .selectFrom('operator_alert_states')
    .selectAll()
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row) return null;
  return {
    alertedState: row.alerted_state,
    observedState: row.observed_state,
    divergedSince: row.diverged_since === null ? null : Number(row.diverged_since),
    version: Number(row.version),
    updatedAt: Number(row.updated_at),
  };
}

/** The first look at a kind: `state` taken as alerted (nothing is sent). A row already there is kept. */
export async function insertAlertState(db: Db, kind: string, state: string, now: number): Promise<void> {
  await db
    .insertInto('operator_alert_states')
    .values({
      kind,
      alerted_state: state,
      alerted_at: now,
      observed_state: null,
      diverged_since: null,
      version: 0,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('kind').doNothing())
    .execute();
}

/** What a look changes of a kind's stored state. */
export type AlertStateChange =
  /** A divergence: `observed` seen since `since`; null: none (the alerted state is seen again). */
  | { watch: { observed: string; since: number } | null }
  /** `alerted` is now the state alerted (the divergence is over). */
  | { alerted: string };

/**
 * Applies `change` to kind's state if its version is still `version` (moving it on). True when it
 * did: of two writers of one version, one wins.
 */
export async function changeAlertState(
  db: Db,
  kind: string,
  version: number,
  change: AlertStateChange,
  now: number,
): Promise<boolean> {
  const divergence =
    'alerted' in change
      ? { alerted_state: change.alerted, alerted_at: now, observed_state: null, diverged_since: null }
      : { observed_state: change.watch?.observed ?? null, diverged_since: change.watch?.since ?? null };
  const result = await db
    .updateTable('operator_alert_states')
    .set({ ...divergence, version: version + 1, updated_at: now })
    .where('kind', '=', kind)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertOperatorAlert(db: Db, alert: OperatorAlert, now: number): Promise<number> {
  const { id } = await db
    .insertInto('operator_alerts')
    .values({
      kind: alert.kind,
      state: alert.state,
      previous_state: alert.previous,
      severity: alert.severity,
      title: alert.title,
      message: alert.message,
      raised_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}
