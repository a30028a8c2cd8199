import type { Db } from '../../db/index.ts';

/*
 * The challenge nonces the loader issues and spends. The redemption, script-key and binding queries
 * the script-user side also runs live with their tables' stores.
 */

export async function insertChallengeNonce(
  db: Db,
  nonce: { nonce: string; scriptKeyId: number; hardwareId: string; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('challenge_nonces')
    .values({
      nonce: nonce.nonce,
      script_key_id: nonce.scriptKeyId,
      hardware_id: nonce.hardwareId,
      expires_at: nonce.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Nonces that can no longer be used, so the table holds only the last minute's. */
export async function deleteExpiredChallengeNonces(db: Db, now: number): Promise<void> {
  await db.deleteFrom('challenge_nonces').where('expires_at', '<=', now).execute();
}

/**
 * Spends the nonce: only an unused, unexpired nonce issued for this key and device matches, and only
 * once (the conditional update), so a replayed URL fails on every instance. Returns whether it did.
 */
export async function consumeChallengeNonce(
  db: Db,
  nonce: { nonce: string; scriptKeyId: number; hardwareId: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('challenge_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce.nonce)
    .where('script_key_id', '=', nonce.scriptKeyId)
    .where('hardware_id', '=', nonce.hardwareId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
