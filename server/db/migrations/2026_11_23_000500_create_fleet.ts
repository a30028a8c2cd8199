import type { Kysely } from 'kysely';

/**
 * The fleet: every hop and discovery the bots report, keyed by their position in the fleet's event
 * stream (`seq`), and the latest state of each scanner so a restart or a second instance knows them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fleet_hops')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('from_job_id', 'text')
    .addColumn('to_job_id', 'text', (c) => c.notNull())
    .addColumn('from_place_id', 'text')
    .addColumn('to_place_id', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('hop_reason', 'text', (c) => c.notNull())
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('total_servers_attempted', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Retention deletes and the last-hour reload go by time; per-bot statistics by bot and time.
  await db.schema.createIndex('fleet_hops_created_at').on('fleet_hops').column('created_at').execute();
  await db.schema
    .createIndex('fleet_hops_bot_time')
    .on('fleet_hops')
    .columns(['bot_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('fleet_discoveries')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('numeric_value', 'double precision', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('placeid', 'text', (c) => c.notNull())
    .addColumn('jobid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fleet_discoveries_created_at')
    .on('fleet_discoveries')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('fleet_scanners')
    .addColumn('ghost_id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scans_per_minute', 'double precision', (c) => c.notNull())
    .addColumn('pets_found', 'integer', (c) => c.notNull())
    .addColumn('uptime', 'double precision', (c) => c.notNull())
    .addColumn('current_job_id', 'text')
    .addColumn('version', 'text')
    .addColumn('error_reason', 'text')
    .addColumn('last_activity', 'bigint', (c) => c.notNull())
    .addColumn('first_seen', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fleet_scanners').execute();
  await db.schema.dropTable('fleet_discoveries').execute();
  await db.schema.dropTable('fleet_hops').execute();
}
