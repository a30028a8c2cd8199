import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';
import { getDashboardStats } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  /** Also the browser's session check: 200 means signed in. */
  app.get('/api/admin/dashboard/stats', async () => getDashboardStats(ctx));
};
