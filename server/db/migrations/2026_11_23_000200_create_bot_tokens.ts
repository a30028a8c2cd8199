import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/** Bot tokens, stored as their SHA-256 (tokens are 256 random bits: no slow hash needed). */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('bot_tokens'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bot_tokens').execute();
}
