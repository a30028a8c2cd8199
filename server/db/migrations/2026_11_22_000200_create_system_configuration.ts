import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('system_configuration')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('total_slots', 'integer', (c) => c.notNull())
    .addColumn('payment_wallets', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scripts_page_config')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('error_reports'))
    .addColumn('error_id', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text')
    .addColumn('url', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('error_reports').execute();
  await db.schema.dropTable('scripts_page_config').execute();
  await db.schema.dropTable('system_configuration').execute();
}
