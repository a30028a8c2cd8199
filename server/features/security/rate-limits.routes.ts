import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimitStatusResponseSchema } from '../../../common/security.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { getRateLimitStatus } from './rate-limits.service.ts';

export const rateLimitsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  /** The Security screen's Rate Limiting Status panel and its two rate-limit cards (polled every 30 s). */
  app.get(
    '/api/admin/security/rate-limits',
    {
      schema: {
        summary: 'Rate limits in force now and the most limited callers of the last 24 hours',
        response: responses({ 200: RateLimitStatusResponseSchema }),
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return getRateLimitStatus(ctx, app.rateLimitStore, app.pendingWrites);
    },
  );
};
