import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';

export async function countLiveBotTokens(db: Db): Promise<number> {
  const row = await db
    .selectFrom('bot_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores a token's hash; false when another instance stored one first (the label is unique per start). */
export async function insertBotTokenHash(
  db: Db,
  tokenHash: string,
  label: string,
  now: number,
): Promise<boolean> {
  try {
    await db
      .insertInto('bot_tokens')
      .values({ token_hash: tokenHash, label, created_at: now, revoked_at: null })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function isLiveBotTokenHash(db: Db, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('bot_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
