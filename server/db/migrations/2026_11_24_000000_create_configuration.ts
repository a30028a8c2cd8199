import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Live configuration of the bots: one configuration per bot, the change records (with one target
 * row per bot and change, pending until the bot acknowledges), the profiles (three built in), and
 * the emergency stop, kept in the database so a restart or another instance knows it.
 */

/** The built-in profiles (values inside the spec's ranges; BALANCED is the spec's defaults). */
const BUILT_IN_PROFILES = [
  {
    id: 'aggressive',
    name: 'Aggressive',
    profile_type: 'AGGRESSIVE',
    description:
      'Hops every 2 s, reports pets from $100K/s, sends large batches: the most finds, the most noise.',
    hop_frequency_ms: 2000,
    min_pet_value: 100_000,
    stealth_mode: 0,
    batch_size: 100,
  },
  {
    id: 'stealth',
    name: 'Stealth',
    profile_type: 'STEALTH',
    description: 'Hops every 15 s in stealth mode, reports pets from $1M/s in small batches: hard to notice.',
    hop_frequency_ms: 15_000,
    min_pet_value: 1_000_000,
    stealth_mode: 1,
    batch_size: 20,
  },
  {
    id: 'balanced',
    name: 'Balanced',
    profile_type: 'BALANCED',
    description: 'The default pace: hops every 5 s, reports pets from $500K/s, batches of 50.',
    hop_frequency_ms: 5000,
    min_pet_value: 500_000,
    stealth_mode: 0,
    batch_size: 50,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bot_configurations')
    .addColumn('bot_id', 'text', (c) => c.primaryKey())
    .addColumn('hop_frequency_ms', 'integer', (c) => c.notNull())
    .addColumn('hop_delay_ms', 'integer', (c) => c.notNull())
    .addColumn('hop_cooldown_ms', 'integer', (c) => c.notNull())
    // Pet values go up to 10^12: past a 32-bit integer.
    .addColumn('min_pet_value', 'bigint', (c) => c.notNull())
    .addColumn('max_pet_value', 'bigint', (c) => c.notNull())
    .addColumn('target_pet_value', 'bigint', (c) => c.notNull())
    .addColumn('stealth_mode', 'integer', (c) => c.notNull())
    .addColumn('max_retry_attempts', 'integer', (c) => c.notNull())
    .addColumn('error_threshold', 'integer', (c) => c.notNull())
    .addColumn('batch_size', 'integer', (c) => c.notNull())
    .addColumn('connection_limit', 'integer', (c) => c.notNull())
    .addColumn('rate_limit', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('profile_id', 'text')
    .addColumn('deploy_state', 'text', (c) => c.notNull())
    .addColumn('deploy_error', 'text')
    .addColumn('sent_at', 'bigint')
    .addColumn('ack_deadline_at', 'bigint')
    .addColumn('last_deployed', 'bigint')
    .addColumn('socket_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bot_configurations_ack_deadline')
    .on('bot_configurations')
    .column('ack_deadline_at')
    .execute();

  await withId(db, db.schema.createTable('configuration_changes'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('is_emergency', 'integer', (c) => c.notNull())
    .addColumn('profile_id', 'text')
    .addColumn('profile_name', 'text')
    .addColumn('rollback_of', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('configuration_changes_created_at')
    .on('configuration_changes')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('configuration_targets')
    .addColumn('change_id', 'integer', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer')
    .addColumn('before_values', 'text', (c) => c.notNull())
    .addColumn('after_values', 'text', (c) => c.notNull())
    .addColumn('profile_before', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('sent_at', 'bigint')
    .addColumn('deadline_at', 'bigint')
    .addColumn('responded_at', 'bigint')
    .addColumn('response_time_ms', 'integer')
    .addPrimaryKeyConstraint('configuration_targets_pk', ['change_id', 'bot_id'])
    .execute();
  // An acknowledgement closes one bot's pending targets; the sweep finds the ones past their deadline;
  // the dashboard reads the newest failures.
  await db.schema
    .createIndex('configuration_targets_bot_state')
    .on('configuration_targets')
    .columns(['bot_id', 'state', 'version'])
    .execute();
  await db.schema
    .createIndex('configuration_targets_state_deadline')
    .on('configuration_targets')
    .columns(['state', 'deadline_at'])
    .execute();
  await db.schema
    .createIndex('configuration_targets_state_responded')
    .on('configuration_targets')
    .columns(['state', 'responded_at'])
    .execute();

  await db.schema
    .createTable('configuration_profiles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('profile_type', 'text', (c) => c.notNull())
    .addColumn('is_built_in', 'integer', (c) => c.notNull())
    .addColumn('usage_count', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('hop_frequency_ms', 'integer', (c) => c.notNull())
    .addColumn('min_pet_value', 'bigint', (c) => c.notNull())
    .addColumn('stealth_mode', 'integer', (c) => c.notNull())
    .addColumn('batch_size', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('configuration_profiles')
    .values(BUILT_IN_PROFILES.map((p) => ({ ...p, is_built_in: 1, usage_count: 0 })))
    .execute();

  // One row (id 1): whether the network is stopped, and the latest stop or resume.
  await db.schema
    .createTable('configuration_emergency')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('stopped', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('changed_at', 'bigint')
    .execute();
  await db.insertInto('configuration_emergency').values({ id: 1, stopped: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('configuration_emergency').execute();
  await db.schema.dropTable('configuration_profiles').execute();
  await db.schema.dropTable('configuration_targets').execute();
  await db.schema.dropTable('configuration_changes').execute();
  await db.schema.dropTable('bot_configurations').execute();
}
