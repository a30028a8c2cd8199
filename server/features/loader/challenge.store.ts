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
 * Spends the nonce, whatever the call that presented it signed: only an unused, unexpired nonce
 * issued for this key matches, and only once (the conditional update), so a replayed URL fails on
 * every instance and a wrong signature costs the caller the nonce. Returns the device it was issued
 * to when this call spent it (the caller checks that it is the device asking), else undefined.
 */
export async function spendChallengeNonce(
  db: Db,
  nonce: { nonce: string; scriptKeyId: number },
  now: number,
): Promise<string | undefined> {
  const row = await db
    .updateTable('challenge_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce.nonce)
    .where('script_key_id', '=', nonce.scriptKeyId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('hardware_id')
    .executeTakeFirst();
  return row?.hardware_id;
}
