import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorReportResponseSchema, ErrorReportSchema } from '../../../common/error-report.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { recordErrorReport } from './health.service.ts';

export const healthRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/admin/error-report',
    {
      schema: { body: ErrorReportSchema, response: responses({ 201: ErrorReportResponseSchema }) },
      // A boundary stuck in a render loop reports on every retry; cap it so it cannot flood the table.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => reply.status(201).send(await recordErrorReport(ctx, request.body)),
  );
};
