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

/**
 * Writes a kind's divergence (`observed` since `since`; both null: none) if its version is still
 * `version`. True when it did.
 */
export async function updateAlertWatch(
  db: Db,
  kind: string,
  version: number,
  watch: { observed: string; since: number } | null,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('operator_alert_states')
    .set({
      observed_state: watch?.observed ?? null,
      diverged_since: watch?.since ?? null,
      version: version + 1,
      updated_at: now,
    })
    .where('kind', '=', kind)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Makes `state` the kind's alerted state if its version is still `version`. True when it did. */
export async function markAlerted(
  db: Db,
  kind: string,
  version: number,
  state: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('operator_alert_states')
    .set({
      alerted_state: state,
      alerted_at: now,
      observed_state: null,
      diverged_since: null,
      version: version + 1,
      updated_at: now,
    })
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
