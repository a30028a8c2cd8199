import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../context.ts';

export const realtimeRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (_app, { ctx: _ctx }) => {};
