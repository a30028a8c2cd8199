import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SystemConfigurationSchema } from '../../../common/system.ts';
import type { FeatureOptions } from '../../context.ts';
import { getSlotUsage, getSystemConfiguration, updateSystemConfiguration } from './system.service.ts';

export const systemRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/admin/system-configuration', async () => ({
    configuration: await getSystemConfiguration(ctx),
  }));

  app.put(
    '/api/admin/system-configuration',
    { schema: { body: SystemConfigurationSchema } },
    async (request) => ({ configuration: await updateSystemConfiguration(ctx, request.body) }),
  );

  app.get('/api/admin/system-configuration/slot-usage', async () => ({
    slotUsage: await getSlotUsage(ctx),
  }));
};
