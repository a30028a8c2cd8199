import type { Kysely } from 'kysely';

/*
 * What a bot without a socket was last told of the emergency stop (1 stopped, 0 running, null never),
 * so POST /api/bot/events hands it emergency_stop / emergency_resume only when that differs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bot_configurations').addColumn('emergency_told', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bot_configurations').dropColumn('emergency_told').execute();
}
