import { type Selectable, sql } from 'kysely';
import {
  type BotParameters,
  type ChangeKind,
  type ChangeTarget,
  type ConfigurationChange,
  TARGET_STATES,
  type TargetState,
} from '../../../common/configuration.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { ConfigurationChangesTable, ConfigurationTargetsTable } from './configuration.table.ts';

/*
 * The change records (who changed what, why) and their targets: each bot's values before and after,
 * and how its push ended. The history, the progress counts and the dashboard's figures read them.
 */

export type ChangeRow = Selectable<ConfigurationChangesTable>;
export type TargetRow = Selectable<ConfigurationTargetsTable>;

const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

/** A count of 0 for each target state. */
export const noTargets = () =>
  Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Record<TargetState, number>;

export interface NewTarget {
  botId: string;
  version: number | null;
  before: Partial<BotParameters>;
  after: Partial<BotParameters>;
  profileBefore: string | null;
  state: TargetState;
  sentAt: number | null;
  deadline: number | null;
  respondedAt?: number | null;
}

export async function insertChange(
  trx: Db,
  change: {
    kind: ChangeKind;
    actor: string;
    reason: string;
    isEmergency: boolean;
    profileId?: string | null;
    profileName?: string | null;
    rollbackOf?: number | null;
    targets: NewTarget[];
  },
  now: number,
): Promise<number> {
  const { id } = await trx
    .insertInto('configuration_changes')
    .values({
      kind: change.kind,
      actor: change.actor,
      reason: change.reason,
      is_emergency: change.isEmergency ? 1 : 0,
      profile_id: change.profileId ?? null,
      profile_name: change.profileName ?? null,
      rollback_of: change.rollbackOf ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const changeId = Number(id);
  // PostgreSQL takes at most 65535 parameters per statement; 12 per target row.
  for (let i = 0; i < change.targets.length; i += 1000) {
    await trx
      .insertInto('configuration_targets')
      .values(
        change.targets.slice(i, i + 1000).map((t) => ({
          change_id: changeId,
          bot_id: t.botId,
          version: t.version,
          before_values: JSON.stringify(t.before),
          after_values: JSON.stringify(t.after),
          profile_before: t.profileBefore,
          state: t.state,
          error: null,
          sent_at: t.sentAt,
          deadline_at: t.deadline,
          responded_at: t.respondedAt ?? null,
          response_time_ms: null,
        })),
      )
      .execute();
  }
  return changeId;
}

/** The newest `limit` changes, newest first. */
export async function findRecentChanges(db: Db, limit: number): Promise<ChangeRow[]> {
  return db
    .selectFrom('configuration_changes')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function findChange(db: Db, id: number): Promise<ChangeRow | undefined> {
  return db.selectFrom('configuration_changes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTargetsOfChanges(db: Db, changeIds: number[]): Promise<TargetRow[]> {
  if (changeIds.length === 0) return [];
  return db
    .selectFrom('configuration_targets')
    .selectAll()
    .where('change_id', 'in', changeIds)
    .orderBy('change_id')
    .orderBy('bot_id')
    .execute();
}

/** How many targets of `changeId` stand where, and how many of them failed with `unansweredError`. */
export async function countTargetStates(
  db: Db,
  changeId: number,
  unansweredError: string,
): Promise<{ counts: Record<TargetState, number>; unanswered: number }> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select((eb) => [
      'state',
      eb.fn.countAll<number>().as('n'),
      // Failed because the bot never answered (the deadline's error), not because it refused.
      eb.fn.sum<number>(eb.case().when('error', '=', unansweredError).then(1).else(0).end()).as('unanswered'),
    ])
    .where('change_id', '=', changeId)
    .groupBy('state')
    .execute();
  const counts = noTargets();
  let unanswered = 0;
  for (const r of rows) {
    counts[r.state] = Number(r.n);
    if (r.state === 'failed') unanswered = Number(r.unanswered ?? 0);
  }
  return { counts, unanswered };
}

/**
 * Closes a bot's pending targets at or below `version` as the bot answered (or as the deadline
 * decided, with `onlyPastDeadline`); returns the changes whose targets moved.
 */
export async function settleTargets(
  trx: Db,
  botId: string,
  outcome: { state: 'applied' | 'failed'; error: string | null },
  now: number,
  which: { upToVersion: number } | { pastDeadline: true },
): Promise<number[]> {
  let pending = trx
    .selectFrom('configuration_targets')
    .select('change_id')
    .where('bot_id', '=', botId)
    .where('state', '=', 'pending')
    .where('version', 'is not', null);
  pending =
    'upToVersion' in which
      ? pending.where('version', '<=', which.upToVersion)
      : pending.where('deadline_at', '<=', now);
  const changeIds = (await pending.execute()).map((r) => Number(r.change_id));
  if (changeIds.length === 0) return [];
  await trx
    .updateTable('configuration_targets')
    .set({
      state: outcome.state,
      error: outcome.error,
      responded_at: now,
      // Only a bot that answers has a response time; a deadline is not one.
      response_time_ms:
        'upToVersion' in which
          ? sql<number | null>`case when sent_at is null then null else ${now} - sent_at end`
          : null,
      deadline_at: null,
    })
    .where('bot_id', '=', botId)
    .where('state', '=', 'pending')
    .where('change_id', 'in', changeIds)
    .execute();
  return changeIds;
}

/** A bot's pending targets were sent now (its socket said hello): awaited until `deadline`. */
export async function markTargetsSent(trx: Db, botId: string, now: number, deadline: number): Promise<void> {
  await trx
    .updateTable('configuration_targets')
    .set({ sent_at: now, deadline_at: deadline })
    .where('bot_id', '=', botId)
    .where('state', '=', 'pending')
    .where('version', 'is not', null)
    .execute();
}

export function targetRowToTarget(row: TargetRow): ChangeTarget {
  return {
    botId: row.bot_id,
    version: numberOrNull(row.version),
    before: JSON.parse(row.before_values) as Partial<BotParameters>,
    after: JSON.parse(row.after_values) as Partial<BotParameters>,
    state: row.state,
    error: row.error,
    respondedAt: isoOrNull(numberOrNull(row.responded_at)),
    responseTimeMs: numberOrNull(row.response_time_ms),
  };
}

/** Emergency stop and resume are undone with the toggle, not rolled back. */
export const isEmergencyChange = (kind: ChangeKind) =>
  kind === 'emergency_stop' || kind === 'emergency_resume';

/** A change record with its targets (in the order given) and how many stand where. */
export function changeRowToChange(row: ChangeRow, targets: TargetRow[]): ConfigurationChange {
  const counts = noTargets();
  for (const t of targets) counts[t.state]++;
  return {
    id: String(row.id),
    kind: row.kind,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    actor: row.actor,
    reason: row.reason,
    isEmergency: Number(row.is_emergency) === 1,
    profileName: row.profile_name,
    rollbackOf: row.rollback_of === null ? null : String(row.rollback_of),
    targets: targets.map(targetRowToTarget),
    counts,
    canRollback: !isEmergencyChange(row.kind),
  };
}
