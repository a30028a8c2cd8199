import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('redemption_keys'))
    .addColumn('redemption_code', 'text', (c) => c.notNull().unique())
    .addColumn('key_type', 'text', (c) => c.notNull())
    .addColumn('is_redeemed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('redeemed_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('max_hardware_bindings', 'integer', (c) => c.notNull())
    .addColumn('validity_duration', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    .execute();
  await withId(db, db.schema.createTable('script_keys'))
    .addColumn('script_key', 'text', (c) => c.notNull().unique())
    .addColumn('script_type', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('max_hardware_bindings', 'integer', (c) => c.notNull())
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('license_key_id', 'integer', (c) => c.references('license_keys.id').onDelete('set null'))
    // One code becomes at most one key: the unique guard behind the redemption race.
    .addColumn('redemption_key_id', 'integer', (c) =>
      c.references('redemption_keys.id').onDelete('set null').unique(),
    )
    .addColumn('notes', 'text')
    .execute();
  await db.schema
    .alterTable('hardware_bindings')
    .addColumn('script_key_id', 'integer', (c) => c.references('script_keys.id').onDelete('cascade'))
    .execute();
  // One row per (script key, device): a second call from a bound device finds it, never adds one.
  await db.schema
    .createIndex('hardware_bindings_script_key_device')
    .on('hardware_bindings')
    .columns(['script_key_id', 'hardware_id'])
    .unique()
    .execute();
  await db.schema
    .createTable('challenge_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().references('script_keys.id').onDelete('cascade'),
    )
    .addColumn('hardware_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('challenge_nonces_expires')
    .on('challenge_nonces')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('challenge_nonces').execute();
  await db.schema.dropIndex('hardware_bindings_script_key_device').execute();
  await db.schema.alterTable('hardware_bindings').dropColumn('script_key_id').execute();
  await db.schema.dropTable('script_keys').execute();
  await db.schema.dropTable('redemption_keys').execute();
}
