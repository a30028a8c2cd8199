import { ADMIN_SESSION_TTL_MS, LOGIN_FAILURE_LIMIT, LOGIN_TEXTS } from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http-error.ts';
import { limitedClient } from '../security/client-address.ts';
import type { PendingWrites } from '../security/pending-writes.ts';
import { RATE_LIMIT_HIT } from '../security/rate-limit-hits.store.ts';
import { type AuditEntry, insertAuditLog } from '../security/security.store.ts';
import type { SecretVerdict } from './admin-secret.ts';
import { deleteExpiredSessions, deleteSession, findLiveSession, insertSession } from './auth.store.ts';
import { randomToken, sha256 } from './secret.ts';

export { ensureAdminSecret } from './admin-secret.ts';

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * Checks the secret and opens a 24 h session; returns the cookie token. Each attempt is counted
 * against its client (IPv4 address or IPv6 /64, as the rate limits count, so rotating addresses
 * within one block gives no extra tries) before the secret is checked, in one atomic statement: the
 * LOGIN_FAILURE_LIMIT+1th attempt in the window, concurrent or not, gets 429 unchecked. The right
 * secret gives its attempt back; a wrong one, or one the scrypt queue refused, keeps it as a failure.
 * A client's first attempt in its window is checked before those of clients that have failed.
 *
 * A refusal costs one statement: its audit row goes through the batched writes (`pendingWrites`), and
 * a session is opened in one transaction, so during a flood the admin's sign-in waits for the
 * database twice, not once per statement behind every wrong guess's statements.
 */
export async function login(
  ctx: AppContext,
  pendingWrites: PendingWrites,
  secret: string,
  client: ClientInfo,
): Promise<{ token: string; expiresAt: number }> {
  const now = ctx.now();
  const counted = limitedClient(client.ip);
  const who = { ipAddress: client.ip, client: counted };
  const audit = (entry: Omit<AuditEntry, keyof typeof who>) => pendingWrites.audit({ ...entry, ...who }, now);
  const { adminSecret, loginLockout } = ctx.services;
  const attempt = await loginLockout.reserve(counted, now);
  if (!attempt) {
    audit({
      eventType: RATE_LIMIT_HIT,
      success: false,
      details: { limitType: 'admin_login', failures: LOGIN_FAILURE_LIMIT },
    });
    throw new HttpError(429, LOGIN_TEXTS.tooMany);
  }
  let verdict: SecretVerdict;
  try {
    verdict = await adminSecret.check(secret, counted, attempt.attempts === 1 ? 'priority' : 'normal');
  } catch (error) {
    // Not the caller's failure (the database, say): the attempt is not held against it.
    await loginLockout.release(ctx.db, counted, attempt).catch(() => {});
    throw error;
  }
  if (verdict !== 'right') loginLockout.failed(counted, attempt);
  if (verdict === 'refused') {
    audit({ eventType: 'admin_login', success: false, details: { reason: 'not checked: too many waiting' } });
    throw new HttpError(429, LOGIN_TEXTS.busy);
  }
  if (verdict === 'wrong') {
    audit({ eventType: 'admin_login', success: false, details: { reason: 'invalid secret' } });
    throw new HttpError(401, LOGIN_TEXTS.invalid);
  }
  const token = randomToken();
  const expiresAt = now + ADMIN_SESSION_TTL_MS;
  await ctx.db.transaction().execute(async (trx) => {
    await loginLockout.release(trx, counted, attempt);
    await deleteExpiredSessions(trx, now);
    await insertSession(trx, {
      id: sha256(token),
      createdAt: now,
      expiresAt,
      ipAddress: client.ip,
      userAgent: client.userAgent,
    });
    await insertAuditLog(trx, { eventType: 'admin_login', success: true, ...who }, now);
  });
  return { token, expiresAt };
}

export async function logout(ctx: AppContext, token: string | undefined): Promise<void> {
  if (token) await deleteSession(ctx.db, sha256(token));
}

/** Whether the cookie token belongs to a live session. */
export async function isSessionValid(ctx: AppContext, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  return (await findLiveSession(ctx.db, sha256(token), ctx.now())) !== undefined;
}
