import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogListResponseSchema, AuditLogQuerySchema } from '../../../common/security.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { scheduleAuditRetention } from './audit-retention.ts';
import { listAuditLogsForAdmin } from './security.service.ts';

export const securityRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  scheduleAuditRetention(app, ctx);

  app.get(
    '/api/admin/security/audit-logs',
    {
      schema: {
        summary: "Page through the last 24 hours' audit log, newest first, optionally of one event type",
        querystring: AuditLogQuerySchema,
        response: responses({ 200: AuditLogListResponseSchema }),
      },
    },
    async (request) => listAuditLogsForAdmin(ctx, app.pendingWrites, request.query),
  );
};
