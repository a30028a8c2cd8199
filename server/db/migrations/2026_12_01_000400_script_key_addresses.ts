import type { Kysely } from 'kysely';

/*
 * Key-sharing signals: where each script key was used from over the last KEY_SHARING_WINDOW_HOURS
 * (one row per key and address, its network beside it, pruned by a sweep), and the reason a key
 * was switched off that its buyer sees (null: switched off by the admin, or on).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('script_key_addresses')
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().references('script_keys.id').onDelete('cascade'),
    )
    /** An IPv4 address, or an IPv6 address's /64. */
    .addColumn('address', 'text', (c) => c.notNull())
    /** The address's /24 (IPv4) or /48 (IPv6). */
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('first_seen', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('script_key_addresses_pk', ['script_key_id', 'address'])
    .execute();
  await db.schema
    .createIndex('script_key_addresses_last_seen')
    .on('script_key_addresses')
    .column('last_seen')
    .execute();
  await db.schema.alterTable('script_keys').addColumn('disabled_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('script_keys').dropColumn('disabled_reason').execute();
  await db.schema.dropTable('script_key_addresses').execute();
}
