import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ScriptsPageConfigSchema } from '../../../common/scripts-page.ts';
import type { FeatureOptions } from '../../context.ts';
import {
  getScriptsPageConfig,
  resetScriptsPageConfig,
  saveScriptsPageConfig,
} from './scripts-page.service.ts';

/** The scripts page editor. The public page reads the same row (public feature), never a cached copy. */
export const scriptsPageRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/scripts-page-config', async () => ({ config: await getScriptsPageConfig(ctx) }));

  app.put(
    '/api/admin/scripts-page-config',
    { schema: { body: ScriptsPageConfigSchema } },
    async (request) => ({ config: await saveScriptsPageConfig(ctx, request.body, { ip: request.ip }) }),
  );

  app.post(
    '/api/admin/scripts-page-config/reset',
    { schema: { body: z.unknown().optional() } },
    async (request) => ({ config: await resetScriptsPageConfig(ctx, { ip: request.ip }) }),
  );
};
