import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import { isSessionValid } from './auth.service.ts';

/** Routes under /api/admin that are reachable without a session. */
const PUBLIC_ADMIN_ROUTES = new Set(['/api/admin/login']);

export function isGuardedRoute(url: string): boolean {
  return url.startsWith('/api/admin/') && !PUBLIC_ADMIN_ROUTES.has(url);
}

/**
 * Every /api/admin/* route needs a live admin session. The check keys on the matched route pattern,
 * so a route added later is guarded without opting in.
 */
export function registerAdminGuard(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || !isGuardedRoute(route)) return;
    if (await isSessionValid(ctx, request.cookies[SESSION_COOKIE])) return;
    return reply.status(401).send({ error: 'Authentication required' });
  });
}
