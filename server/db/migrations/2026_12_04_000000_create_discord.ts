import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Discord as the buyer's desk: the application's settings as System Configuration → Discord stores
 * them (one row; each DISCORD_* variable wins over its column), and which Discord user holds which
 * script key (a user may hold several keys, a key belongs to one user).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('discord_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('application_id', 'text')
    .addColumn('public_key', 'text')
    .addColumn('bot_token', 'text')
    .addColumn('guild_id', 'text')
    .addColumn('premium_role_id', 'text')
    .addColumn('admin_role_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable('discord_links'))
    .addColumn('script_key_id', 'integer', (c) =>
      c.notNull().unique().references('script_keys.id').onDelete('cascade'),
    )
    .addColumn('discord_user_id', 'text', (c) => c.notNull())
    /** The guild the link was made in; null for a direct message to the bot. */
    .addColumn('guild_id', 'text')
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discord_links_user').on('discord_links').column('discord_user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('discord_links').execute();
  await db.schema.dropTable('discord_settings').execute();
}
