import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTypeResponseSchema,
  AccessTypeSchema,
  DeleteScriptResponseSchema,
  DeployScriptResponseSchema,
  DeployScriptSchema,
  SaveScriptResponseSchema,
  SaveScriptSchema,
  ScriptListResponseSchema,
  ScriptResponseSchema,
  ScriptVersionsResponseSchema,
} from '../../../common/scripts.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { downloadRoutes } from './download.routes.ts';
import { LuaSyntaxRefusal } from './script-content.ts';
import { scriptFilesRoutes } from './script-files.routes.ts';
import { FilenameParamsSchema, ScriptVersionsQuerySchema } from './script-params.ts';
import {
  deleteScript,
  deployScript,
  getScript,
  getScriptVersions,
  listScripts,
  saveScript,
  setScriptAccessType,
} from './scripts.service.ts';
import { scriptsPageRoutes } from './scripts-page.routes.ts';
import { syntaxCheckRoutes } from './syntax-check.routes.ts';
import { UPLOAD_LIMITS } from './upload.ts';

/** A save's JSON may escape 1 MiB of Lua to several times its size; the schema caps the content itself. */
const SAVE_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * The scripts feature: script management, the file manager (uploads), the scripts page config,
 * and downloads. Multipart parsing exists only inside this plugin.
 */
export const scriptsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  await app.register(multipart, { limits: UPLOAD_LIMITS });
  // A refused Lua save or upload also says where it broke, so the editor can mark the spot.
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof LuaSyntaxRefusal) {
      return reply.status(400).send({ error: error.message, syntaxError: error.syntaxError });
    }
    throw error;
  });

  app.get(
    '/api/admin/scripts',
    {
      schema: {
        summary: 'List the scripts (shipped and hosted) with their access type and current version',
        response: responses({ 200: ScriptListResponseSchema }),
      },
    },
    async () => ({ scripts: await listScripts(ctx) }),
  );

  app.get(
    '/api/admin/scripts/:filename',
    {
      schema: {
        summary: 'Read a script with its current content',
        params: FilenameParamsSchema,
        response: responses({ 200: ScriptResponseSchema }),
      },
    },
    async (request) => ({ script: await getScript(ctx, request.params.filename) }),
  );

  app.get(
    '/api/admin/scripts/:filename/versions',
    {
      schema: {
        summary: "A script's versions, newest first",
        params: FilenameParamsSchema,
        querystring: ScriptVersionsQuerySchema,
        response: responses({ 200: ScriptVersionsResponseSchema }),
      },
    },
    async (request) => ({
      versions: await getScriptVersions(ctx, request.params.filename, request.query.limit),
    }),
  );

  app.post(
    '/api/admin/scripts/save',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: {
        summary:
          'Save a script: creates it (201) or adds a version (200); Lua that does not parse is refused',
        body: SaveScriptSchema,
        response: responses({ 200: SaveScriptResponseSchema, 201: SaveScriptResponseSchema }),
      },
    },
    async (request, reply) => {
      const saved = await saveScript(ctx, request.body, { ip: request.ip });
      return reply.status(saved.created ? 201 : 200).send(saved);
    },
  );

  app.post(
    '/api/admin/scripts/deploy',
    {
      schema: {
        summary: "Deploy a script's current version to the loaders (a save already does)",
        body: DeployScriptSchema,
        response: responses({ 200: DeployScriptResponseSchema }),
      },
    },
    async (request) => deployScript(ctx, request.body.filename, { ip: request.ip }),
  );

  app.delete(
    '/api/admin/scripts/:filename',
    {
      schema: {
        summary: 'Delete a hosted script with its versions (shipped scripts cannot be deleted)',
        params: FilenameParamsSchema,
        response: responses({ 200: DeleteScriptResponseSchema }),
      },
    },
    async (request) => deleteScript(ctx, request.params.filename, { ip: request.ip }),
  );

  app.put(
    '/api/admin/scripts/:filename/access-type',
    {
      schema: {
        summary: 'Make a script FREE (keyless) or PREMIUM (script key required)',
        params: FilenameParamsSchema,
        body: AccessTypeSchema,
        response: responses({ 200: AccessTypeResponseSchema }),
      },
    },
    async (request) => ({
      success: true as const,
      script: await setScriptAccessType(ctx, request.params.filename, request.body.accessType, {
        ip: request.ip,
      }),
    }),
  );

  await app.register(scriptFilesRoutes, { ctx });
  await app.register(syntaxCheckRoutes, { ctx });
  await app.register(scriptsPageRoutes, { ctx });
  await app.register(downloadRoutes, { ctx });
};
