import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';

// Placeholder: routes land with the licensing work.
export const rateLimitsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (_app, { ctx: _ctx }) => {};
