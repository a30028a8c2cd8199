import {
  ADMIN_SESSION_TTL_MS,
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_TEXTS,
} from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http-error.ts';
import { limitedClient } from '../security/client-address.ts';
import { RATE_LIMIT_HIT } from '../security/rate-limit-hits.store.ts';
import { countAuditEventsByClient, insertAuditLog } from '../security/security.store.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findAdminSecretHash,
  findLiveSession,
  insertAdminSecretHash,
  insertSession,
} from './auth.store.ts';
import {
  hashSecret,
  randomToken,
  secretsEqual,
  sha256,
  VerificationsBusyError,
  verifySecretHash,
} from './secret.ts';

/** A login refused because too many others are being checked (secret.ts); not audited, as it costs nothing. */
export const LOGIN_BUSY_TEXT = 'Too many sign-ins are being checked: try again in a moment';

/**
 * Makes sure there is an admin secret. With ADMIN_SECRET set that is it; otherwise the first start
 * generates one, stores its hash and returns the plain secret so main can print it once.
 */
export async function ensureAdminSecret(ctx: AppContext): Promise<{ generated: string | null }> {
  if (ctx.config.ADMIN_SECRET) return { generated: null };
  if (await findAdminSecretHash(ctx.db)) return { generated: null };
  const secret = randomToken(24);
  const stored = await insertAdminSecretHash(ctx.db, await hashSecret(secret), ctx.now());
  return { generated: stored ? secret : null };
}

async function isAdminSecret(ctx: AppContext, candidate: string): Promise<boolean> {
  if (ctx.config.ADMIN_SECRET) return secretsEqual(candidate, ctx.config.ADMIN_SECRET);
  const stored = await findAdminSecretHash(ctx.db);
  if (!stored) return false;
  try {
    return await verifySecretHash(candidate, stored);
  } catch (error) {
    // 503, not 429: the server is busy with everyone's logins, not limiting this caller.
    if (error instanceof VerificationsBusyError) throw new HttpError(503, LOGIN_BUSY_TEXT);
    throw error;
  }
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * Checks the secret and opens a 24 h session; returns the cookie token. Failures lock the client out
 * after LOGIN_FAILURE_LIMIT within the window, counted per IPv4 address or IPv6 /64 as the rate
 * limits count, so rotating addresses within one block gives no extra tries.
 */
export async function login(
  ctx: AppContext,
  secret: string,
  client: ClientInfo,
): Promise<{ token: string; expiresAt: number }> {
  const now = ctx.now();
  const counted = limitedClient(client.ip);
  const failures = await countAuditEventsByClient(
    ctx.db,
    'admin_login',
    counted,
    false,
    now - LOGIN_FAILURE_WINDOW_MS,
  );
  if (failures >= LOGIN_FAILURE_LIMIT) {
    await insertAuditLog(
      ctx.db,
      {
        eventType: RATE_LIMIT_HIT,
        success: false,
        ipAddress: client.ip,
        client: counted,
        details: { limitType: 'admin_login', failures },
      },
      now,
    );
    throw new HttpError(429, LOGIN_TEXTS.tooMany);
  }
  if (!(await isAdminSecret(ctx, secret))) {
    await insertAuditLog(
      ctx.db,
      {
        eventType: 'admin_login',
        success: false,
        ipAddress: client.ip,
        client: counted,
        details: { reason: 'invalid secret' },
      },
      now,
    );
    throw new HttpError(401, LOGIN_TEXTS.invalid);
  }
  const token = randomToken();
  const expiresAt = now + ADMIN_SESSION_TTL_MS;
  await deleteExpiredSessions(ctx.db, now);
  await insertSession(ctx.db, {
    id: sha256(token),
    createdAt: now,
    expiresAt,
    ipAddress: client.ip,
    userAgent: client.userAgent,
  });
  await insertAuditLog(
    ctx.db,
    { eventType: 'admin_login', success: true, ipAddress: client.ip, client: counted },
    now,
  );
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
