import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  HardwareBindingListResponseSchema,
  RevokeBindingResponseSchema,
  RevokeBindingSchema,
} from '../../../common/hardware-bindings.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { listBindingsForAdmin, revokeBinding } from './bindings.service.ts';

export const bindingsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/hardware/bindings',
    { schema: { response: responses({ 200: HardwareBindingListResponseSchema }) } },
    async () => listBindingsForAdmin(ctx),
  );

  app.post(
    '/api/admin/license/revoke-binding',
    { schema: { body: RevokeBindingSchema, response: responses({ 200: RevokeBindingResponseSchema }) } },
    async (request) => revokeBinding(ctx, request.body.bindingId, { ip: request.ip }),
  );
};
