import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SuccessSchema } from '../../../common/api-error.ts';
import {
  CreateRedemptionKeySchema,
  RedemptionKeyListResponseSchema,
  RedemptionKeyResponseSchema,
} from '../../../common/redemption.ts';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { responses } from '../../plugins/responses.ts';
import {
  createRedemptionKey,
  deleteRedemptionKey,
  listRedemptionKeysForAdmin,
} from './redemption.service.ts';

export const redemptionRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // The screen polls this list and must never be handed a cached copy (spec: no-cache headers).
  app.get(
    '/api/admin/redemption-keys',
    {
      schema: {
        summary: 'List every redemption code, newest first',
        response: responses({ 200: RedemptionKeyListResponseSchema }),
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return listRedemptionKeysForAdmin(ctx);
    },
  );

  app.post(
    '/api/admin/create-redemption-key',
    {
      schema: {
        summary: 'Create a redemption code that becomes a script key when redeemed',
        body: CreateRedemptionKeySchema,
        response: responses({ 201: RedemptionKeyResponseSchema }),
      },
    },
    async (request, reply) => {
      const redemptionKey = await createRedemptionKey(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ redemptionKey });
    },
  );

  app.delete(
    '/api/admin/redemption-keys/:id',
    {
      schema: {
        summary: 'Delete a redemption code',
        params: IdParamsSchema,
        response: responses({ 200: SuccessSchema }),
      },
    },
    async (request) => {
      await deleteRedemptionKey(ctx, request.params.id, { ip: request.ip });
      return { success: true as const };
    },
  );
};
