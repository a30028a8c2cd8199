import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogQuerySchema } from '../../../common/security.ts';
import type { FeatureOptions } from '../../context.ts';
import { scheduleAuditRetention } from './audit-retention.ts';
import { listAuditLogsForAdmin } from './security.service.ts';

export const securityRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  scheduleAuditRetention(app, ctx);

  app.get(
    '/api/admin/security/audit-logs',
    { schema: { querystring: AuditLogQuerySchema } },
    async (request) => listAuditLogsForAdmin(ctx, app.pendingWrites, request.query),
  );
};
