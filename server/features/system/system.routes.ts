import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SlotUsageResponseSchema,
  SystemConfigurationResponseSchema,
  SystemConfigurationSchema,
} from '../../../common/system.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import {
  getSlotUsage,
  getSystemConfiguration,
  updateSystemConfiguration,
  WalletProblemsError,
} from './system.service.ts';

export const systemRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // A refused wallet also says which one and why, so the form can mark that row (WalletProblemsAnswer).
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof WalletProblemsError) {
      return reply.status(400).send({ error: error.message, walletProblems: error.walletProblems });
    }
    throw error;
  });

  app.get(
    '/api/admin/system-configuration',
    {
      schema: {
        summary: 'Read the premium slot capacity and the payment wallets',
        response: responses({ 200: SystemConfigurationResponseSchema }),
      },
    },
    async () => ({ configuration: await getSystemConfiguration(ctx) }),
  );

  app.put(
    '/api/admin/system-configuration',
    {
      schema: {
        summary:
          'Save the slot capacity, the payment wallets (each address checked for its currency) and the community invite link',
        body: SystemConfigurationSchema,
        response: responses({ 200: SystemConfigurationResponseSchema }),
      },
    },
    async (request) => {
      const tab = request.headers['x-server-id'];
      // Only an id the console could have made is echoed back (session-id.ts); anything else is dropped.
      const from = typeof tab === 'string' && /^[\w-]{1,64}$/.test(tab) ? tab : undefined;
      return { configuration: await updateSystemConfiguration(ctx, request.body, from) };
    },
  );

  app.get(
    '/api/admin/system-configuration/slot-usage',
    {
      schema: {
        summary: 'Count the premium slots in use (active, unexpired PREMIUM and VIP licenses)',
        response: responses({ 200: SlotUsageResponseSchema }),
      },
    },
    async () => ({ slotUsage: await getSlotUsage(ctx) }),
  );
};
