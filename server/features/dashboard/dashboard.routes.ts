import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardStatsSchema } from '../../../common/dashboard.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { getDashboardStats } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  /** Also the browser's session check: 200 means signed in. */
  app.get(
    '/api/admin/dashboard/stats',
    { schema: { response: responses({ 200: DashboardStatsSchema }) } },
    async () => getDashboardStats(ctx),
  );
};
