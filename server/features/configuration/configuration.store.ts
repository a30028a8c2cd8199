import { type Selectable, sql } from 'kysely';
import {
  type BotConfiguration,
  type BotParameterName,
  type BotParameters,
  type ChangeKind,
  type ChangeTarget,
  type ConfigurationChange,
  type ConfigurationProfile,
  DEFAULT_BOT_PARAMETERS,
  type EmergencyState,
  TARGET_STATES,
  type TargetState,
} from '../../../common/configuration.ts';
import { countWhere } from '../../db/aggregates.ts';
import type { Db, DialectName } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type {
  BotConfigurationsTable,
  ConfigurationChangesTable,
  ConfigurationProfilesTable,
  ConfigurationTargetsTable,
} from './configuration.table.ts';

export type ConfigurationRow = Selectable<BotConfigurationsTable>;
export type ChangeRow = Selectable<ConfigurationChangesTable>;
export type TargetRow = Selectable<ConfigurationTargetsTable>;

/** Each parameter's column. */
const COLUMNS = {
  hopFrequencyMs: 'hop_frequency_ms',
  hopDelayMs: 'hop_delay_ms',
  hopCooldownMs: 'hop_cooldown_ms',
  minPetValue: 'min_pet_value',
  maxPetValue: 'max_pet_value',
  targetPetValue: 'target_pet_value',
  stealthMode: 'stealth_mode',
  maxRetryAttempts: 'max_retry_attempts',
  errorThreshold: 'error_threshold',
  batchSize: 'batch_size',
  connectionLimit: 'connection_limit',
  rateLimit: 'rate_limit',
} as const satisfies Record<BotParameterName, keyof BotConfigurationsTable>;

type ParameterColumn = (typeof COLUMNS)[BotParameterName];

/** The columns for some parameters (stealth mode as 0/1). */
function parameterColumns(values: Partial<BotParameters>): Partial<Record<ParameterColumn, number>> {
  const row: Partial<Record<ParameterColumn, number>> = {};
  for (const [name, value] of Object.entries(values) as Array<[BotParameterName, number | boolean]>) {
    row[COLUMNS[name]] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return row;
}

/** A row's parameters, as bots receive them. */
export function parametersOfRow(row: ConfigurationRow): BotParameters {
  return {
    hopFrequencyMs: Number(row.hop_frequency_ms),
    hopDelayMs: Number(row.hop_delay_ms),
    hopCooldownMs: Number(row.hop_cooldown_ms),
    minPetValue: Number(row.min_pet_value),
    maxPetValue: Number(row.max_pet_value),
    targetPetValue: Number(row.target_pet_value),
    stealthMode: Number(row.stealth_mode) === 1,
    maxRetryAttempts: Number(row.max_retry_attempts),
    errorThreshold: Number(row.error_threshold),
    batchSize: Number(row.batch_size),
    connectionLimit: Number(row.connection_limit),
    rateLimit: Number(row.rate_limit),
  };
}

/** A nullable number column as a number (as every store reads its columns). */
const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

const noTargets = () => Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Record<TargetState, number>;

/* ---------- configurations ---------- */

/** A row as the admin reads it; whether the bot is active and its profile's name come from elsewhere. */
export function configurationRowToConfiguration(
  row: ConfigurationRow,
  extra: { isActive: boolean; profileName: string | null },
): BotConfiguration {
  return {
    id: row.bot_id,
    botId: row.bot_id,
    ...parametersOfRow(row),
    isActive: extra.isActive,
    version: Number(row.version),
    profileId: row.profile_id,
    profileName: extra.profileName,
    lastDeployed: isoOrNull(numberOrNull(row.last_deployed)),
    deployState: row.deploy_state,
    deployError: row.deploy_error,
  };
}

export async function findConfigurations(db: Db): Promise<ConfigurationRow[]> {
  return db.selectFrom('bot_configurations').selectAll().execute();
}

/** Deletes a bot's configuration (the bot left the fleet); its change history stays. */
export async function deleteConfiguration(db: Db, botId: string): Promise<void> {
  await db.deleteFrom('bot_configurations').where('bot_id', '=', botId).execute();
}

/**
 * The configurations of `botIds`, locked until the transaction ends (PostgreSQL; SQLite runs one
 * transaction at a time), in id order so two changes to overlapping bots take their locks alike.
 */
export async function lockConfigurations(
  trx: Db,
  dialect: DialectName,
  botIds: string[],
): Promise<ConfigurationRow[]> {
  if (botIds.length === 0) return [];
  const query = trx
    .selectFrom('bot_configurations')
    .selectAll()
    .where('bot_id', 'in', botIds)
    .orderBy('bot_id');
  return (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

/** Gives each of `botIds` without a configuration the default one at version 1; returns how many. */
export async function insertDefaultConfigurations(db: Db, botIds: string[], now: number): Promise<number> {
  if (botIds.length === 0) return 0;
  const result = await db
    .insertInto('bot_configurations')
    .values(
      botIds.map((botId) => ({
        bot_id: botId,
        ...(parameterColumns(DEFAULT_BOT_PARAMETERS) as Record<ParameterColumn, number>),
        version: 1,
        profile_id: null,
        deploy_state: 'pending' as const,
        deploy_error: null,
        sent_at: null,
        ack_deadline_at: null,
        last_deployed: null,
        socket_id: null,
        emergency_told: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column('bot_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** A new version of a bot's values: pending, awaited by `deadline` when the bot could be sent it now. */
export async function updateConfigurationValues(
  trx: Db,
  botId: string,
  change: {
    values: Partial<BotParameters>;
    version: number;
    profileId: string | null;
    sentAt: number | null;
    deadline: number | null;
  },
  now: number,
): Promise<void> {
  await trx
    .updateTable('bot_configurations')
    .set({
      ...parameterColumns(change.values),
      version: change.version,
      profile_id: change.profileId,
      deploy_state: 'pending',
      deploy_error: null,
      sent_at: change.sentAt,
      ack_deadline_at: change.deadline,
      updated_at: now,
    })
    .where('bot_id', '=', botId)
    .execute();
}

/** The bot's socket said hello (socketId) or closed (null, only if it is still the socket on record). */
export async function setConfigurationSocket(
  db: Db,
  botId: string,
  socketId: string | null,
  closing?: string,
): Promise<void> {
  let query = db.updateTable('bot_configurations').set({ socket_id: socketId }).where('bot_id', '=', botId);
  if (closing !== undefined) query = query.where('socket_id', '=', closing);
  await query.execute();
}

/** The bot's latest version was sent (again) now: awaited until `deadline`, unless already applied. */
export async function markConfigurationSent(
  trx: Db,
  botId: string,
  version: number,
  now: number,
  deadline: number,
): Promise<void> {
  await trx
    .updateTable('bot_configurations')
    .set({ sent_at: now, ack_deadline_at: deadline, deploy_state: 'pending', deploy_error: null })
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .where('deploy_state', '!=', 'applied')
    .execute();
}

/** What the bot was told of the emergency stop over POST /api/bot/events. */
export async function setEmergencyTold(trx: Db, botId: string, stopped: boolean): Promise<void> {
  await trx
    .updateTable('bot_configurations')
    .set({ emergency_told: stopped ? 1 : 0 })
    .where('bot_id', '=', botId)
    .execute();
}

/** The bot answered for `version`: applied or failed, when that is still its latest version. */
export async function settleConfiguration(
  trx: Db,
  botId: string,
  version: number,
  outcome: { state: 'applied' | 'failed'; error: string | null },
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('bot_configurations')
    .set({
      deploy_state: outcome.state,
      deploy_error: outcome.error,
      ack_deadline_at: null,
      ...(outcome.state === 'applied' ? { last_deployed: now } : {}),
    })
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Bots whose latest version, or a pending target, is past its acknowledgement deadline. */
export async function findBotsPastDeadline(db: Db, now: number): Promise<string[]> {
  const [configurations, targets] = await Promise.all([
    db
      .selectFrom('bot_configurations')
      .select('bot_id')
      .where('deploy_state', '=', 'pending')
      .where('ack_deadline_at', '<=', now)
      .execute(),
    db
      .selectFrom('configuration_targets')
      .select('bot_id')
      .distinct()
      .where('state', '=', 'pending')
      .where('deadline_at', '<=', now)
      .execute(),
  ]);
  return [...new Set([...configurations, ...targets].map((r) => r.bot_id))].sort();
}

/** A bot's latest version past its deadline becomes failed; returns whether it was. */
export async function expireConfiguration(
  trx: Db,
  botId: string,
  error: string,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('bot_configurations')
    .set({ deploy_state: 'failed', deploy_error: error, ack_deadline_at: null })
    .where('bot_id', '=', botId)
    .where('deploy_state', '=', 'pending')
    .where('ack_deadline_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/* ---------- changes and their targets ---------- */

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

/** Every change's targets by state, all changes together (the metrics' configuration figures). */
export async function countAllTargetStates(db: Db): Promise<Record<TargetState, number>> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const counts = noTargets();
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
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

/* ---------- figures ---------- */

export async function countChangesSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('configuration_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Configuration pushes that ended (emergency stop/resume are not deployments: their version is null). */
export async function loadDeploymentStats(db: Db): Promise<{
  successfulDeployments: number;
  totalDeployments: number;
  averageResponseTime: number;
}> {
  const row = await db
    .selectFrom('configuration_targets')
    .select((eb) => [
      countWhere(eb('state', '=', 'applied')).as('applied'),
      countWhere(eb('state', '=', 'failed')).as('failed'),
      sql<number | null>`avg(case when state = 'applied' then response_time_ms else null end)`.as('average'),
    ])
    .where('version', 'is not', null)
    .executeTakeFirstOrThrow();
  const applied = Number(row.applied);
  return {
    successfulDeployments: applied,
    totalDeployments: applied + Number(row.failed),
    averageResponseTime: row.average === null ? 0 : Math.round(Number(row.average)),
  };
}

export async function findRecentFailures(
  db: Db,
  limit: number,
): Promise<Array<{ botId: string; errorMessage: string; timestamp: string }>> {
  const rows = await db
    .selectFrom('configuration_targets')
    .select(['bot_id', 'error', 'responded_at'])
    .where('state', '=', 'failed')
    .orderBy('responded_at', 'desc')
    .orderBy('change_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    botId: r.bot_id,
    errorMessage: r.error ?? '',
    timestamp: new Date(Number(r.responded_at ?? 0)).toISOString(),
  }));
}

/* ---------- profiles ---------- */

export type ProfileRow = Selectable<ConfigurationProfilesTable>;

export function profileRowToProfile(row: ProfileRow): ConfigurationProfile {
  return {
    id: row.id,
    name: row.name,
    profileType: row.profile_type,
    isBuiltIn: Number(row.is_built_in) === 1,
    usageCount: Number(row.usage_count),
    description: row.description,
    hopFrequencyMs: Number(row.hop_frequency_ms),
    minPetValue: Number(row.min_pet_value),
    stealthMode: Number(row.stealth_mode) === 1,
    batchSize: Number(row.batch_size),
  };
}

export async function findProfiles(db: Db): Promise<ProfileRow[]> {
  return db
    .selectFrom('configuration_profiles')
    .selectAll()
    .orderBy('is_built_in', 'desc')
    .orderBy('name')
    .execute();
}

export async function findProfile(db: Db, id: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('configuration_profiles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function incrementProfileUsage(trx: Db, id: string): Promise<void> {
  await trx
    .updateTable('configuration_profiles')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/* ---------- emergency ---------- */

export async function findEmergencyState(db: Db): Promise<EmergencyState> {
  const row = await db
    .selectFrom('configuration_emergency')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirst();
  // Who: the change record the latest stop or resume wrote in the same transaction.
  const change = await db
    .selectFrom('configuration_changes')
    .select('actor')
    .where('kind', 'in', ['emergency_stop', 'emergency_resume'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    stopped: Number(row?.stopped ?? 0) === 1,
    reason: row?.reason ?? null,
    changedAt: isoOrNull(numberOrNull(row?.changed_at ?? null)),
    changedBy: change?.actor ?? null,
  };
}

/**
 * Stops or resumes the network when it is not already so (a conditional update, so of two calls at
 * once one wins); returns false when it already was.
 */
export async function switchEmergency(
  trx: Db,
  stopped: boolean,
  reason: string,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('configuration_emergency')
    .set({ stopped: stopped ? 1 : 0, reason, changed_at: now })
    .where('id', '=', 1)
    .where('stopped', '=', stopped ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
