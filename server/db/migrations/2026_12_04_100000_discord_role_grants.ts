import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Discord's REST side: the premium role each linked Discord user should hold in a guild (one row per
 * user, guild and role, with the change still to make and its failures), and what was last written
 * to each guild's slash commands (a hash, so a start overwrites them only when they changed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('discord_role_grants'))
    .addColumn('discord_user_id', 'text', (c) => c.notNull())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    // The change a 'failed' row is retrying: 'add' or 'remove'.
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // Whoever calls Discord for the row holds it until then, so no change is made twice.
    .addColumn('claimed_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('discord_role_grants_user_guild_role', ['discord_user_id', 'guild_id', 'role_id'])
    .execute();
  await db.schema
    .createIndex('discord_role_grants_state_due')
    .on('discord_role_grants')
    .columns(['state', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('discord_command_registrations')
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('commands_hash', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('discord_command_registrations_pk', ['application_id', 'guild_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('discord_command_registrations').execute();
  await db.schema.dropTable('discord_role_grants').execute();
}
