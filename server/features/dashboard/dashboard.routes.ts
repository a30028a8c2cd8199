import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (_app, { ctx: _ctx }) => {};
