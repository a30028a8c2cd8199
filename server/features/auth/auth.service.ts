import {
  ADMIN_SESSION_TTL_MS,
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_TEXTS,
} from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../plugins/errors.ts';
import { RATE_LIMIT_HIT } from '../security/rate-limit-hits.store.ts';
import { countAuditEventsByIp, insertAuditLog } from '../security/security.store.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findAdminSecretHash,
  findLiveSession,
  insertAdminSecretHash,
  insertSession,
} from './auth.store.ts';
import { hashSecret, randomToken, secretsEqual, sha256, verifySecretHash } from './secret.ts';

export const SESSION_COOKIE = 'scanline_session';

/**
 * Makes sure there is an admin secret. With ADMIN_SECRET set that is it; otherwise the first start
 * generates one, stores its hash and returns the plain secret so main can print it once.
 */
export async function ensureAdminSecret(ctx: AppContext): Promise<{ generated: string | null }> {
  if (ctx.config.ADMIN_SECRET) return { generated: null };
  if (await findAdminSecretHash(ctx.db)) return { generated: null };
  const secret = randomToken(24);
  const stored = await insertAdminSecretHash(ctx.db, hashSecret(secret), ctx.now());
  return { generated: stored ? secret : null };
}

async function isAdminSecret(ctx: AppContext, candidate: string): Promise<boolean> {
  if (ctx.config.ADMIN_SECRET) return secretsEqual(candidate, ctx.config.ADMIN_SECRET);
  const stored = await findAdminSecretHash(ctx.db);
  return stored ? verifySecretHash(candidate, stored) : false;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** Checks the secret and opens a 24 h session; returns the cookie token. */
export async function login(
  ctx: AppContext,
  secret: string,
  client: ClientInfo,
): Promise<{ token: string; expiresAt: number }> {
  const now = ctx.now();
  const failures = await countAuditEventsByIp(
    ctx.db,
    'admin_login',
    client.ip,
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
  await insertAuditLog(ctx.db, { eventType: 'admin_login', success: true, ipAddress: client.ip }, now);
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
