import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateScriptKeySchema,
  SCRIPT_KEY_TEXTS,
  ScriptKeyIdBodySchema,
} from '../../../common/script-keys.ts';
import type { FeatureOptions } from '../../context.ts';
import {
  createScriptKey,
  deleteScriptKey,
  listScriptKeysForAdmin,
  toggleScriptKey,
} from './script-keys.service.ts';

/**
 * Ids are integer columns: a larger number can name no row, and PostgreSQL would refuse to compare it
 * (a 500), so it is refused here with the field's name.
 */
const MAX_ID = 2_147_483_647;

const CreateBodySchema = CreateScriptKeySchema.extend({
  licenseKeyId: CreateScriptKeySchema.shape.licenseKeyId.refine(
    (id) => id == null || id <= MAX_ID,
    `licenseKeyId must be at most ${MAX_ID}`,
  ),
  redemptionKeyId: CreateScriptKeySchema.shape.redemptionKeyId.refine(
    (id) => id == null || id <= MAX_ID,
    `redemptionKeyId must be at most ${MAX_ID}`,
  ),
});

const KeyIdBodySchema = ScriptKeyIdBodySchema.extend({
  keyId: ScriptKeyIdBodySchema.shape.keyId.max(MAX_ID, `keyId must be at most ${MAX_ID}`),
});

export const scriptKeysRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/script-keys/list', async () => listScriptKeysForAdmin(ctx));

  app.post(
    '/api/admin/script-keys/create',
    { schema: { body: CreateBodySchema } },
    async (request, reply) => {
      const scriptKey = await createScriptKey(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ scriptKey });
    },
  );

  app.post('/api/admin/script-keys/toggle-status', { schema: { body: KeyIdBodySchema } }, async (request) =>
    toggleScriptKey(ctx, request.body.keyId, { ip: request.ip }),
  );

  app.delete('/api/admin/script-keys/delete', { schema: { body: KeyIdBodySchema } }, async (request) => {
    await deleteScriptKey(ctx, request.body.keyId, { ip: request.ip });
    return { success: true, message: SCRIPT_KEY_TEXTS.deleted };
  });
};
