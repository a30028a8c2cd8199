import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/** The server pool: game servers bots claim and release, the failures they report, and the bots' standing. */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('pool_servers'))
    // One row per game server: the unique job id is what makes a repeated add a no-op.
    .addColumn('job_id', 'text', (c) => c.notNull().unique())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('playing', 'integer')
    .addColumn('max_players', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('assigned_to', 'text')
    .addColumn('assigned_at', 'bigint')
    .addColumn('deleted_reason', 'text')
    .addColumn('deleted_at', 'bigint')
    .addColumn('quarantined_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Claims take the least recently used available server (of a place); the sweep finds old leases.
  await db.schema
    .createIndex('pool_servers_status_place_updated')
    .on('pool_servers')
    .columns(['status', 'place_id', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('pool_servers_status_updated')
    .on('pool_servers')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('pool_servers_assigned_to')
    .on('pool_servers')
    .columns(['assigned_to', 'status'])
    .execute();
  await withId(db, db.schema.createTable('pool_failures'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('ghost_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pool_failures_job_failed')
    .on('pool_failures')
    .columns(['job_id', 'failed_at'])
    .execute();
  await db.schema
    .createIndex('pool_failures_ghost_failed')
    .on('pool_failures')
    .columns(['ghost_id', 'failed_at'])
    .execute();
  await db.schema.createIndex('pool_failures_failed').on('pool_failures').column('failed_at').execute();
  await db.schema
    .createTable('pool_bots')
    .addColumn('ghost_id', 'text', (c) => c.primaryKey())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_ok_at', 'bigint')
    .addColumn('flagged_at', 'bigint')
    .addColumn('failed_servers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pool_bots').execute();
  await db.schema.dropTable('pool_failures').execute();
  await db.schema.dropTable('pool_servers').execute();
}
