import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('license_keys'))
    .addColumn('license_key', 'text', (c) => c.notNull().unique())
    .addColumn('key_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('max_bindings', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('notes', 'text')
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await withId(db, db.schema.createTable('hardware_bindings'))
    .addColumn('license_key_id', 'integer', (c) => c.references('license_keys.id').onDelete('cascade'))
    .addColumn('hardware_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('device_info', 'text')
    .addColumn('first_bind_date', 'bigint', (c) => c.notNull())
    .addColumn('last_used_date', 'bigint')
    .execute();
  await db.schema
    .createIndex('hardware_bindings_license_key')
    .on('hardware_bindings')
    .column('license_key_id')
    .execute();
  await db.schema
    .createTable('usage_daily')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_daily').execute();
  await db.schema.dropTable('hardware_bindings').execute();
  await db.schema.dropTable('license_keys').execute();
}
