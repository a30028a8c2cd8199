import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../../common/auth.ts';
import type { FeatureOptions } from '../../context.ts';
import { errorResponses } from '../../plugins/responses.ts';
import { isSessionValid } from '../auth/auth.service.ts';
import { getScriptForDownload } from './script-files.service.ts';
import { FilenameParamsSchema } from './script-params.ts';

/** GET /api/hosted-scripts/{name}: a script file as a download, byte for byte as stored. */
export const downloadRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/hosted-scripts/:filename',
    {
      schema: {
        summary: 'Download a script file as stored; anything but a public FREE file needs an admin session',
        params: FilenameParamsSchema,
        // Text sent as text/plain goes out as it is: fastify runs no serializer on it, so this only
        // describes the file.
        response: {
          200: {
            description: 'The Lua file, as an attachment named after it',
            content: { 'text/plain': { schema: z.string() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const isAdmin = await isSessionValid(ctx, request.cookies[SESSION_COOKIE]);
      const file = await getScriptForDownload(ctx, request.params.filename, isAdmin);
      return (
        reply
          .type('text/plain; charset=utf-8')
          .header('content-disposition', contentDisposition(file.filename))
          // Public files may be revalidated by caches; private ones must not be kept anywhere.
          .header('cache-control', file.isOpenToAll ? 'no-cache' : 'private, no-store')
          .send(file.content)
      );
    },
  );
};
