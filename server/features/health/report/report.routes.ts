import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type HealthReportResponse, HealthReportResponseSchema } from '../../../../common/ai-health.ts';
import type { FeatureOptions } from '../../../context.ts';
import { responses } from '../../../plugins/responses.ts';
import { runAnalysis } from '../analysis/analysis.service.ts';
import { HealthReports } from './report.service.ts';

/** The report's own calls stay out of the request timings it reports (they would measure themselves). */
const notTimed = { skipRequestTiming: true };

/**
 * AI health (spec section 7): the latest health report, and Generate Report. Both sit under
 * /api/admin, so the admin guard and (for the POST) the origin check apply.
 */
export const healthReportRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const reports = new HealthReports(ctx, {
    timings: app.requestTimings,
    pendingWrites: app.pendingWrites,
    openFindings: () => runAnalysis(ctx, ctx.now()),
    log: app.log,
  });

  app.get(
    '/api/admin/system-health',
    { config: notTimed, schema: { response: responses({ 200: HealthReportResponseSchema }) } },
    async (): Promise<HealthReportResponse> => ({ healthReport: await reports.latest() }),
  );

  app.post(
    '/api/admin/system-health/generate',
    // Spec: no payload; whatever a client sends along is ignored.
    {
      config: notTimed,
      schema: { body: z.unknown().optional(), response: responses({ 200: HealthReportResponseSchema }) },
    },
    async (request): Promise<HealthReportResponse> => ({
      healthReport: await reports.generate({
        protocol: request.protocol,
        forwardedProto: [request.headers['x-forwarded-proto']].flat()[0],
      }),
    }),
  );
};
