import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ENROLLED_BOTS_URL,
  EnrolledBotsResponseSchema,
  RevokeEnrollmentParamsSchema,
  RevokeEnrollmentResponseSchema,
} from '../../../common/bot-enrollment.ts';
import { RemoveBotParamsSchema, RemoveBotResponseSchema } from '../../../common/fleet.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { listEnrollments, revokeBot } from './bot-enrollment.service.ts';
import { removeBot } from './fleet-removal.service.ts';

/** The administrator's fleet calls (admin session and Origin check: every /api/admin/* route has them). */
export const fleetAdminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // Removes a bot with its configuration and pool leases, on every instance; its history stays.
  app.delete(
    '/api/admin/fleet/bots/:ghostId',
    { schema: { params: RemoveBotParamsSchema, response: responses({ 200: RemoveBotResponseSchema }) } },
    async (request) => removeBot(ctx, request.params.ghostId, { by: 'admin', ip: request.ip }),
  );

  // The bots holding their own credential, with when and from where they enrolled and were last seen.
  app.get(
    ENROLLED_BOTS_URL,
    { schema: { response: responses({ 200: EnrolledBotsResponseSchema }) } },
    async () => ({ enrolledBots: await listEnrollments(ctx) }),
  );

  // Revokes one: refused everywhere at once, its sockets closed on every instance.
  app.delete(
    `${ENROLLED_BOTS_URL}/:ghostId`,
    {
      schema: {
        params: RevokeEnrollmentParamsSchema,
        response: responses({ 200: RevokeEnrollmentResponseSchema }),
      },
    },
    async (request) => revokeBot(ctx, request.params.ghostId, request.ip ?? null),
  );
};
