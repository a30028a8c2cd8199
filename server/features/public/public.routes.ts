import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PublicScriptsPageConfigResponseSchema, PurchaseInfoSchema } from '../../../common/public-api.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { getPublicScriptsPageConfig, getPurchaseInfo } from './public.service.ts';

export const publicRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/public/purchase-info',
    { schema: { response: responses({ 200: PurchaseInfoSchema }) } },
    async () => getPurchaseInfo(ctx),
  );

  app.get(
    '/api/public/scripts-page-config',
    { schema: { response: responses({ 200: PublicScriptsPageConfigResponseSchema }) } },
    async () => ({
      config: await getPublicScriptsPageConfig(ctx),
    }),
  );
};
