import type { Kysely } from 'kysely';

/*
 * Each enrolled bot's own credential (POST /api/bot/enroll): one row per ghost id, holding the
 * SHA-256 of its botToken (256 random bits: no slow hash needed), when and from where it enrolled
 * and was last seen. A revoked row stays (revoked_at set), so the shared token can never speak for
 * an id that once had its own credential; enrolling the id again reuses the row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bot_credentials')
    .addColumn('ghost_id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
    .addColumn('enrolled_ip', 'text')
    .addColumn('last_seen_at', 'bigint')
    .addColumn('last_ip', 'text')
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bot_credentials').execute();
}
