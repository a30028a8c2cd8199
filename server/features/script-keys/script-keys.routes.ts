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

export const scriptKeysRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/script-keys/list', async () => listScriptKeysForAdmin(ctx));

  app.post(
    '/api/admin/script-keys/create',
    { schema: { body: CreateScriptKeySchema } },
    async (request, reply) => {
      const scriptKey = await createScriptKey(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ scriptKey });
    },
  );

  app.post(
    '/api/admin/script-keys/toggle-status',
    { schema: { body: ScriptKeyIdBodySchema } },
    async (request) => toggleScriptKey(ctx, request.body.keyId, { ip: request.ip }),
  );

  app.delete(
    '/api/admin/script-keys/delete',
    { schema: { body: ScriptKeyIdBodySchema } },
    async (request) => {
      await deleteScriptKey(ctx, request.body.keyId, { ip: request.ip });
      return { success: true, message: SCRIPT_KEY_TEXTS.deleted };
    },
  );
};
