import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ScriptsPageConfigResponseSchema, ScriptsPageConfigSchema } from '../../../common/scripts-page.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import {
  getScriptsPageConfig,
  resetScriptsPageConfig,
  saveScriptsPageConfig,
} from './scripts-page.service.ts';

/** The scripts page editor. The public page reads the same row (public feature), never a cached copy. */
export const scriptsPageRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/scripts-page-config',
    {
      schema: {
        summary: "Read the public scripts page's configuration for the editor",
        response: responses({ 200: ScriptsPageConfigResponseSchema }),
      },
    },
    async () => ({ config: await getScriptsPageConfig(ctx) }),
  );

  app.put(
    '/api/admin/scripts-page-config',
    {
      schema: {
        summary: "Save the public scripts page's configuration",
        body: ScriptsPageConfigSchema,
        response: responses({ 200: ScriptsPageConfigResponseSchema }),
      },
    },
    async (request) => ({ config: await saveScriptsPageConfig(ctx, request.body, { ip: request.ip }) }),
  );

  app.post(
    '/api/admin/scripts-page-config/reset',
    {
      schema: {
        summary: "Put the public scripts page's configuration back to the defaults",
        body: z.unknown().optional(),
        response: responses({ 200: ScriptsPageConfigResponseSchema }),
      },
    },
    async (request) => ({ config: await resetScriptsPageConfig(ctx, { ip: request.ip }) }),
  );
};
