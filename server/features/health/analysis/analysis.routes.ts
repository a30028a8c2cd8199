import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AnalysisResponse,
  AnalysisResponseSchema,
  AnalysisResultSchema,
  RecommendationSchema,
  type RecommendationsResponse,
  RecommendationsResponseSchema,
} from '../../../../common/ai-health.ts';
import type { FeatureOptions } from '../../../context.ts';
import { IdParamsSchema } from '../../../plugins/id-params.ts';
import { schedulePeriodicSweep } from '../../../plugins/periodic-sweep.ts';
import { responses } from '../../../plugins/responses.ts';
import {
  ANALYSIS_EVERY_MS,
  listAnalysis,
  listRecommendationsForAdmin,
  pruneAnalysis,
  resolveFinding,
  runAnalysis,
} from './analysis.service.ts';
import { implementRecommendation } from './implement.service.ts';

/**
 * AI health (spec section 7): findings with Resolve, recommendations with Implement. Under
 * /api/admin, so the admin guard and (for the POSTs) the origin check apply. The analysis itself
 * runs every minute here, and on Generate Report.
 */
export const analysisRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/ai-analysis',
    { schema: { response: responses({ 200: AnalysisResponseSchema }) } },
    async (): Promise<AnalysisResponse> => ({
      analysisResults: await listAnalysis(ctx),
    }),
  );

  app.post(
    '/api/admin/ai-analysis/resolve/:id',
    { schema: { params: IdParamsSchema, response: responses({ 200: AnalysisResultSchema }) } },
    async (request) => resolveFinding(ctx, request.params.id),
  );

  app.get(
    '/api/admin/ai-recommendations',
    { schema: { response: responses({ 200: RecommendationsResponseSchema }) } },
    async (): Promise<RecommendationsResponse> => ({
      recommendations: await listRecommendationsForAdmin(ctx),
    }),
  );

  app.post(
    '/api/admin/ai-recommendations/implement/:id',
    { schema: { params: IdParamsSchema, response: responses({ 200: RecommendationSchema }) } },
    async (request) => implementRecommendation(ctx, request.params.id, { ip: request.ip }),
  );

  schedulePeriodicSweep(app, {
    name: 'AI health analysis (findings and recommendations past their retention)',
    everyMs: ANALYSIS_EVERY_MS,
    run: async () => {
      // Queued audit rows (loader refusals, rate-limit hits) first, so the run reads them.
      await app.pendingWrites.flush();
      await runAnalysis(ctx, ctx.now());
      return pruneAnalysis(ctx);
    },
  });
};
