import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../common/auth.ts';
import type { AppContext } from '../context.ts';
import { isSessionValid } from '../features/auth/auth.service.ts';
import { sha256 } from '../features/auth/secret.ts';
import { botTokenOf, isBotToken } from '../features/fleet/bot-token.ts';
import type { SocketIdentity } from './connection.ts';

/** Recognises one kind of caller from the upgrade request, or returns null to let the next one try. */
export type SocketAuthenticator = (
  ctx: AppContext,
  request: FastifyRequest,
) => Promise<SocketIdentity | null>;

/**
 * An admin dashboard: the same session cookie as /api/admin/*, re-checked on every liveness sweep
 * and closed at once when that session logs out (publishSessionEnded).
 */
export const adminSessionAuthenticator: SocketAuthenticator = async (ctx, request) => {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || !(await isSessionValid(ctx, token))) return null;
  return { kind: 'admin', sessionId: sha256(token), stillValid: () => isSessionValid(ctx, token) };
};

/**
 * A scanner bot: a bot token in `Authorization: Bearer` or `?token=` (executors cannot set headers
 * on a socket). A revoked token closes the socket at the next liveness sweep.
 */
export const botTokenAuthenticator: SocketAuthenticator = async (ctx, request) => {
  const token = botTokenOf(request);
  if (!(await isBotToken(ctx, token))) return null;
  return { kind: 'bot', stillValid: () => isBotToken(ctx, token) };
};

/** Tried in order; the first to recognise the caller decides its kind. */
export const SOCKET_AUTHENTICATORS: SocketAuthenticator[] = [
  adminSessionAuthenticator,
  botTokenAuthenticator,
];

export async function authenticateSocket(
  ctx: AppContext,
  request: FastifyRequest,
  authenticators: readonly SocketAuthenticator[] = SOCKET_AUTHENTICATORS,
): Promise<SocketIdentity | null> {
  for (const authenticate of authenticators) {
    const identity = await authenticate(ctx, request);
    if (identity) return identity;
  }
  return null;
}
