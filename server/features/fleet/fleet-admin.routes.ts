import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RemoveBotParamsSchema, RemoveBotResponseSchema } from '../../../common/fleet.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { removeBot } from './fleet-removal.service.ts';

/** The administrator's fleet calls (admin session and Origin check: every /api/admin/* route has them). */
export const fleetAdminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // Removes a bot with its configuration and pool leases, on every instance; its history stays.
  app.delete(
    '/api/admin/fleet/bots/:ghostId',
    { schema: { params: RemoveBotParamsSchema, response: responses({ 200: RemoveBotResponseSchema }) } },
    async (request) => removeBot(ctx, request.params.ghostId, { by: 'admin', ip: request.ip }),
  );
};
