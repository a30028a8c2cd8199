import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SlotUsageResponseSchema,
  SystemConfigurationResponseSchema,
  SystemConfigurationSchema,
} from '../../../common/system.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { getSlotUsage, getSystemConfiguration, updateSystemConfiguration } from './system.service.ts';

export const systemRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
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
        summary: 'Save the slot capacity and the payment wallets (dashboards are told to refresh)',
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
