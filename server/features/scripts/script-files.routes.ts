import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { saveUploadedScript } from './script-files.service.ts';
import { deleteScriptFile, listHostedScriptFiles, listScriptFiles } from './scripts.service.ts';
import { readScriptUpload } from './upload.ts';

/** The file manager: file lists, uploads and deletes. Registered inside the scripts plugin (multipart). */
export const scriptFilesRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/hosted-scripts/list', async () => ({ files: await listHostedScriptFiles(ctx) }));

  app.get('/api/admin/all-scripts/list', async () => listScriptFiles(ctx));

  app.post('/api/admin/scripts/upload', async (request, reply) => {
    const upload = await readScriptUpload(request);
    const saved = await saveUploadedScript(ctx, upload, { ip: request.ip });
    return reply.status(saved.status).send(saved.body);
  });

  app.delete('/api/admin/hosted-scripts/:id', { schema: { params: IdParamsSchema } }, async (request) =>
    deleteScriptFile(ctx, request.params.id, { ip: request.ip }),
  );
};
