import type { Kysely } from 'kysely';

/* Where buyers open a ticket, set in System Configuration (null: not set) instead of fixed in the page. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('system_configuration').addColumn('community_invite_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('system_configuration').dropColumn('community_invite_url').execute();
}
