import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_credentials')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('admin_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await withId(db, db.schema.createTable('audit_logs'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('license_key', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('hardware_id', 'text')
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_logs_timestamp').on('audit_logs').column('timestamp').execute();
  await db.schema
    .createIndex('audit_logs_event_ip_time')
    .on('audit_logs')
    .columns(['event_type', 'ip_address', 'timestamp'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_logs').execute();
  await db.schema.dropTable('admin_sessions').execute();
  await db.schema.dropTable('admin_credentials').execute();
}
