import type { Selectable } from 'kysely';
import {
  type BotConfiguration,
  type BotParameterName,
  type BotParameters,
  DEFAULT_BOT_PARAMETERS,
} from '../../../common/configuration.ts';
import type { Db, DialectName } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { BotConfigurationsTable } from './configuration.table.ts';

/*
 * Each bot's configuration: its parameters, its latest version and where that version's push
 * stands (pending, applied, failed; the socket it went to; its acknowledgement deadline).
 */

export type ConfigurationRow = Selectable<BotConfigurationsTable>;

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
    lastDeployed: isoOrNull(row.last_deployed === null ? null : Number(row.last_deployed)),
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
