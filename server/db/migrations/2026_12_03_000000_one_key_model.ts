import { type Kysely, sql } from 'kysely';
import { withId } from '../column.ts';

/*
 * One key model (issue 36): a license key is the buyer's entitlement and resolves to exactly one
 * script key, the one devices present (license_keys.script_key_id, unique: the guard that makes its
 * creation happen once across instances). Existing license keys adopt the oldest script key that
 * already names them; the others get theirs when first presented. A code redeemed onto a running
 * key (a renewal) is recorded in key_renewals, so the used code finds its key again. A device a
 * reset removed cannot bind the key again until removed_devices.blocked_until.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('license_keys')
    .addColumn('script_key_id', 'integer', (c) => c.references('script_keys.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('license_keys_script_key')
    .on('license_keys')
    .column('script_key_id')
    .unique()
    .execute();
  await sql`update license_keys set script_key_id = (
      select min(script_keys.id) from script_keys where script_keys.license_key_id = license_keys.id
    ) where script_key_id is null`.execute(db);

  await withId(db, db.schema.createTable('key_renewals'))
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().references('script_keys.id').onDelete('cascade'),
    )
    // One code renews one key once: the guard behind two renewals racing with the same code.
    .addColumn('redemption_key_id', 'integer', (c) =>
      c.notNull().references('redemption_keys.id').onDelete('cascade').unique(),
    )
    .addColumn('hours', 'integer', (c) => c.notNull())
    .addColumn('renewed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('removed_devices')
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().references('script_keys.id').onDelete('cascade'),
    )
    .addColumn('hardware_id', 'text', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('removed_devices_pk', ['script_key_id', 'hardware_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('removed_devices').execute();
  await db.schema.dropTable('key_renewals').execute();
  await db.schema.dropIndex('license_keys_script_key').execute();
  await db.schema.alterTable('license_keys').dropColumn('script_key_id').execute();
}
