import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import type { SocketIdentity } from '../../realtime/connection.ts';
import { isSessionValid } from './auth.service.ts';
import { sha256 } from './secret.ts';

/**
 * An admin dashboard's socket: the same session cookie as /api/admin/*, re-checked on every
 * liveness sweep and closed at once when that session logs out (publisher.endSession). Null for
 * a request without a valid session (the transport tries the next protocol, then answers 401).
 */
export async function authenticateAdminSocket(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<SocketIdentity | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || !(await isSessionValid(ctx, token))) return null;
  return { kind: 'admin', sessionId: sha256(token), stillValid: () => isSessionValid(ctx, token) };
}
