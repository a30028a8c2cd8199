import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KeySharingResponseSchema } from '../../../common/script-keys.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { listSharedScriptKeys } from './key-sharing-list.ts';

/** Key-sharing signals on Script Keys (the admin session is checked for every /api/admin route). */
export const keySharingRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/script-keys/sharing',
    {
      schema: {
        summary:
          'Script keys used from more addresses or networks than KEY_SHARING_*_THRESHOLD allow, with their latest uses',
        response: responses({ 200: KeySharingResponseSchema }),
      },
    },
    async () => listSharedScriptKeys(ctx),
  );
};
