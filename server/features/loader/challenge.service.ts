import { randomBytes } from 'node:crypto';
import { CHALLENGE_TTL_MS, type ChallengeResponse } from '../../../common/script-access.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http-error.ts';
import { findScriptKeyByKey } from '../script-keys/script-keys.store.ts';
import type { PendingWrites } from '../security/pending-writes.ts';
import { deleteExpiredChallengeNonces, insertChallengeNonce } from './challenge.store.ts';
import { ACCESS_TEXTS, inactiveKeyText } from './loader-access.ts';
import type { ScriptUserClient } from './redeem.service.ts';

/**
 * Issues a single-use nonce for challenge mode: the executor then loads with
 * &nonce=…&sig=hex(HMAC-SHA256(key, nonce + hwid + script)) within CHALLENGE_TTL_MS. Only a key that
 * could open a PREMIUM script gets one (active, unexpired, not FREE); anything else is 403.
 */
export async function issueChallenge(
  ctx: AppContext,
  pending: PendingWrites,
  input: { key: string; hwid: string },
  client: ScriptUserClient,
): Promise<ChallengeResponse> {
  const now = ctx.now();
  const row = await findScriptKeyByKey(ctx.db, input.key);
  if (!row) throw new HttpError(403, ACCESS_TEXTS.unknownKey);
  if (row.expires_at !== null && row.expires_at <= now) throw new HttpError(403, ACCESS_TEXTS.expiredKey);
  if (row.is_active !== 1) throw new HttpError(403, inactiveKeyText(row.disabled_reason));
  if (row.script_type === 'FREE') throw new HttpError(403, ACCESS_TEXTS.freeKey);

  const nonce = randomBytes(16).toString('hex');
  const expiresAt = now + CHALLENGE_TTL_MS;
  // Spent and expired nonces are worthless; clearing them here keeps the table to the last minute's.
  await deleteExpiredChallengeNonces(ctx.db, now);
  await insertChallengeNonce(ctx.db, { nonce, scriptKeyId: row.id, hardwareId: input.hwid, expiresAt });
  pending.audit(
    {
      eventType: 'challenge_issued',
      success: true,
      licenseKey: row.script_key,
      ipAddress: client.ip,
      hardwareId: input.hwid,
      details: { scriptKeyId: row.id, nonce, expiresAt: new Date(expiresAt).toISOString() },
    },
    now,
  );
  return {
    nonce,
    expiresAt: new Date(expiresAt).toISOString(),
    expiresIn: Math.round(CHALLENGE_TTL_MS / 1000),
  };
}
