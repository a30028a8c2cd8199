import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Device resets a buyer makes from My key: one row per reset (the weekly budget counts them over a
 * rolling 7 days, whatever the audit log's retention), the extra resets an admin granted a key, and
 * the weekly budget on System Configuration (null: HWID_RESETS_PER_WEEK).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('hwid_resets'))
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().references('script_keys.id').onDelete('cascade'),
    )
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    /** buyer | admin */
    .addColumn('reset_by', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('removed', 'integer', (c) => c.notNull())
    /** 1 when the reset spent an admin-granted extra reset rather than the weekly budget. */
    .addColumn('used_extra', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hwid_resets_key_time')
    .on('hwid_resets')
    .columns(['script_key_id', 'reset_at'])
    .execute();
  await db.schema
    .alterTable('script_keys')
    .addColumn('extra_resets', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('system_configuration').addColumn('hwid_resets_per_week', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('system_configuration').dropColumn('hwid_resets_per_week').execute();
  await db.schema.alterTable('script_keys').dropColumn('extra_resets').execute();
  await db.schema.dropTable('hwid_resets').execute();
}
