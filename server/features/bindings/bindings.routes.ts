import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RevokeBindingSchema } from '../../../common/hardware-bindings.ts';
import type { FeatureOptions } from '../../context.ts';
import { listBindingsForAdmin, revokeBinding } from './bindings.service.ts';

export const bindingsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/hardware/bindings', async () => listBindingsForAdmin(ctx));

  app.post('/api/admin/license/revoke-binding', { schema: { body: RevokeBindingSchema } }, async (request) =>
    revokeBinding(ctx, request.body.bindingId, { ip: request.ip }),
  );
};
