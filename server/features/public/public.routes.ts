import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';
import { getPublicScriptsPageConfig, getPurchaseInfo } from './public.service.ts';

export const publicRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/public/purchase-info', async () => getPurchaseInfo(ctx));

  app.get('/api/public/scripts-page-config', async () => ({
    config: await getPublicScriptsPageConfig(ctx),
  }));
};
