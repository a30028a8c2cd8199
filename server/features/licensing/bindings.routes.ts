import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RevokeBindingSchema } from '../../../common/hardware-bindings.ts';
import type { FeatureOptions } from '../../context.ts';
import { listBindingsForAdmin, revokeBinding } from './bindings.service.ts';

/**
 * Ids are integer columns: a larger number can name no row, and PostgreSQL would refuse to compare it
 * (a 500), so it is refused here with the field's name.
 */
const MAX_ID = 2_147_483_647;

const RevokeBodySchema = RevokeBindingSchema.extend({
  bindingId: RevokeBindingSchema.shape.bindingId.max(MAX_ID, `bindingId must be at most ${MAX_ID}`),
});

export const bindingsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/hardware/bindings', async () => listBindingsForAdmin(ctx));

  app.post('/api/admin/license/revoke-binding', { schema: { body: RevokeBodySchema } }, async (request) =>
    revokeBinding(ctx, request.body.bindingId, { ip: request.ip }),
  );
};
