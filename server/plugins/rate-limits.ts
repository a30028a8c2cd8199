import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { RateLimitedCall } from '../../common/security.ts';
import type { AppContext } from '../context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The preHandler hooks that rate-limit one call per client IP and, where the call carries one,
     * per key (redeem: the code; challenge and loader: the script key). Each refused request is
     * audited as `rate_limit_hit`.
     */
    rateLimitHooks(call: RateLimitedCall): preHandlerAsyncHookHandler[];
  }
}

/** Registers the limiter store and `app.rateLimitHooks`. (Placeholder: limits nothing yet.) */
export function registerRateLimits(app: FastifyInstance, _ctx: AppContext): void {
  app.decorate('rateLimitHooks', (_call: RateLimitedCall) => []);
}
