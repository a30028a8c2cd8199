import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../common/auth.ts';
import type { AppContext } from '../context.ts';
import { isSessionValid } from '../features/auth/auth.service.ts';
import { sha256 } from '../features/auth/secret.ts';
import { botTokenOf, isBotToken, judgeBotToken } from '../features/fleet/bot-token.ts';
import type { SocketIdentity } from './connection.ts';

/** An upgrade refused outright, with the status (and Retry-After) to answer, rather than passed on. */
export interface SocketRefusal {
  refused: { status: number; error: string; retryAfter?: string };
}

/**
 * Recognises one kind of caller from the upgrade request, refuses it, or returns null to let the
 * next one try.
 */
export type SocketAuthenticator = (
  ctx: AppContext,
  request: FastifyRequest,
) => Promise<SocketIdentity | SocketRefusal | null>;

export const isSocketRefusal = (answer: SocketIdentity | SocketRefusal): answer is SocketRefusal =>
  'refused' in answer;

/** The bot a socket was opened for (`?ghostId=` on its upgrade): its hello must name the same one. */
const upgradeGhostIds = new WeakMap<SocketIdentity, string>();

export function upgradeGhostIdOf(identity: SocketIdentity): string | undefined {
  return upgradeGhostIds.get(identity);
}

/** The `?ghostId=` of an upgrade request: undefined when absent, null when present but not a single string. */
export function upgradeGhostIdParam(request: FastifyRequest): string | null | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.ghostId;
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

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
 * on a socket). A revoked token closes the socket at the next liveness sweep. An address past its
 * wrong tokens is refused with 429 (judgeBotToken), a right token too.
 */
export const botTokenAuthenticator: SocketAuthenticator = async (ctx, request) => {
  const token = botTokenOf(request);
  if (token === undefined) return null;
  const verdict = await judgeBotToken(ctx, request);
  if (!verdict.ok) {
    return verdict.status === 429
      ? { refused: { status: 429, error: verdict.error, retryAfter: verdict.retryAfter } }
      : null;
  }
  const identity: SocketIdentity = { kind: 'bot', stillValid: () => isBotToken(ctx, token) };
  const ghostId = upgradeGhostIdParam(request);
  if (typeof ghostId === 'string') upgradeGhostIds.set(identity, ghostId);
  return identity;
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
): Promise<SocketIdentity | SocketRefusal | null> {
  for (const authenticate of authenticators) {
    const identity = await authenticate(ctx, request);
    if (identity) return identity;
  }
  return null;
}
