import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateScriptKeySchema,
  SCRIPT_KEY_TEXTS,
  ScriptKeyDeletedSchema,
  ScriptKeyIdBodySchema,
  ScriptKeyListResponseSchema,
  ScriptKeyResponseSchema,
  ScriptKeyToggleResponseSchema,
} from '../../../common/script-keys.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import {
  createScriptKey,
  deleteScriptKey,
  listScriptKeysForAdmin,
  toggleScriptKey,
} from './script-keys.service.ts';

export const scriptKeysRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/script-keys/list',
    {
      schema: {
        summary: 'List every script key with its bindings in use, newest first',
        response: responses({ 200: ScriptKeyListResponseSchema }),
      },
    },
    async () => listScriptKeysForAdmin(ctx),
  );

  app.post(
    '/api/admin/script-keys/create',
    {
      schema: {
        summary: 'Create a script key, optionally linked to a license key or a redemption code',
        body: CreateScriptKeySchema,
        response: responses({ 201: ScriptKeyResponseSchema }),
      },
    },
    async (request, reply) => {
      const scriptKey = await createScriptKey(ctx, request.body, { ip: request.ip });
      return reply.status(201).send({ scriptKey });
    },
  );

  app.post(
    '/api/admin/script-keys/toggle-status',
    {
      schema: {
        summary: 'Switch a script key on or off',
        body: ScriptKeyIdBodySchema,
        response: responses({ 200: ScriptKeyToggleResponseSchema }),
      },
    },
    async (request) => toggleScriptKey(ctx, request.body.keyId, { ip: request.ip }),
  );

  app.delete(
    '/api/admin/script-keys/delete',
    {
      schema: {
        summary: 'Delete a script key and its hardware bindings',
        body: ScriptKeyIdBodySchema,
        response: responses({ 200: ScriptKeyDeletedSchema }),
      },
    },
    async (request) => {
      await deleteScriptKey(ctx, request.body.keyId, { ip: request.ip });
      return { success: true as const, message: SCRIPT_KEY_TEXTS.deleted };
    },
  );
};
