import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AllScriptsListResponseSchema,
  DeleteScriptResponseSchema,
  HostedScriptListResponseSchema,
  UploadScriptResponseSchema,
} from '../../../common/scripts.ts';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { responses } from '../../plugins/responses.ts';
import { saveUploadedScript } from './script-files.service.ts';
import { deleteScriptFile, listHostedScriptFiles, listScriptFiles } from './scripts.service.ts';
import { readScriptUpload } from './upload.ts';

/** The file manager: file lists, uploads and deletes. Registered inside the scripts plugin (multipart). */
export const scriptFilesRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/hosted-scripts/list',
    {
      schema: {
        summary: 'List the hosted (uploaded or created) script files',
        response: responses({ 200: HostedScriptListResponseSchema }),
      },
    },
    async () => ({ files: await listHostedScriptFiles(ctx) }),
  );

  app.get(
    '/api/admin/all-scripts/list',
    {
      schema: {
        summary: 'List every script file, shipped and hosted',
        response: responses({ 200: AllScriptsListResponseSchema }),
      },
    },
    async () => listScriptFiles(ctx),
  );

  app.post(
    '/api/admin/scripts/upload',
    {
      schema: {
        summary: 'Upload a .lua file (multipart): a new file (201) or a new version of one (200)',
        consumes: ['multipart/form-data'],
        response: responses({ 200: UploadScriptResponseSchema, 201: UploadScriptResponseSchema }),
      },
    },
    async (request, reply) => {
      const upload = await readScriptUpload(request);
      const saved = await saveUploadedScript(ctx, upload, { ip: request.ip });
      return reply.status(saved.status).send(saved.body);
    },
  );

  app.delete(
    '/api/admin/hosted-scripts/:id',
    {
      schema: {
        summary: 'Delete a hosted script file (shipped files cannot be deleted)',
        params: IdParamsSchema,
        response: responses({ 200: DeleteScriptResponseSchema }),
      },
    },
    async (request) => deleteScriptFile(ctx, request.params.id, { ip: request.ip }),
  );
};
