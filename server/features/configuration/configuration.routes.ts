import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApplyProfileRequestSchema,
  BotConfigurationListSchema,
  BulkUpdateRequestSchema,
  ChangeResultResponseSchema,
  ConfigurationDashboardSchema,
  ConfigurationHistorySchema,
  ConfigurationProfileListSchema,
  EmergencyRequestSchema,
  EmergencyResultSchema,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  RollbackRequestSchema,
} from '../../../common/configuration.ts';
import type { FeatureOptions } from '../../context.ts';
import { IdParamsSchema } from '../../plugins/id-params.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { responses } from '../../plugins/responses.ts';
import { expireUnacknowledged } from './config-delivery.service.ts';
import { getDashboardStats, listConfigurations, listHistory, listProfiles } from './configuration.service.ts';
import { applyProfile, bulkUpdate, rollbackChange } from './configuration-pushes.service.ts';
import { switchNetwork } from './emergency.service.ts';

const HistoryQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}` })
    .int(`limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`)
    .min(1, `limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`)
    .max(HISTORY_MAX_LIMIT, `limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`)
    .default(HISTORY_DEFAULT_LIMIT),
});

const ProfileParamsSchema = z.object({
  profileId: z
    .string()
    .min(1)
    .max(64, 'profileId must be at most 64 characters')
    .regex(/^[\w-]+$/, 'profileId may hold letters, digits, _ and - only'),
});

/**
 * Live bot configuration (spec section 7): reads, pushes (bulk update, profile, rollback) and the
 * emergency toggle. Under /api/admin, so the admin guard and the origin check cover every call.
 */
export const configurationRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/configurations/dashboard-stats',
    {
      schema: {
        summary:
          'Configuration dashboard: counts, profile use, recent failures, deployments, emergency state',
        response: responses({ 200: ConfigurationDashboardSchema }),
      },
    },
    async () => getDashboardStats(ctx),
  );

  app.get(
    '/api/admin/configurations',
    {
      schema: {
        summary: "Every bot's configuration and where its latest push stands, in natural bot order",
        response: responses({ 200: BotConfigurationListSchema }),
      },
    },
    async () => ({ configurations: await listConfigurations(ctx) }),
  );

  app.get(
    '/api/admin/configuration-profiles',
    {
      schema: {
        summary: 'List the configuration profiles with how often each was applied',
        response: responses({ 200: ConfigurationProfileListSchema }),
      },
    },
    async () => ({ profiles: await listProfiles(ctx) }),
  );

  app.post(
    '/api/admin/configurations/bulk-update',
    {
      schema: {
        summary: 'Change parameters on some bots and push them their new configuration',
        body: BulkUpdateRequestSchema,
        response: responses({ 200: ChangeResultResponseSchema }),
      },
    },
    async (request) => ({ result: await bulkUpdate(ctx, request.body, { ip: request.ip }) }),
  );

  app.post(
    '/api/admin/configuration-profiles/:profileId/apply',
    {
      schema: {
        summary: "Apply a profile's parameters to some bots and push them their new configuration",
        params: ProfileParamsSchema,
        body: ApplyProfileRequestSchema,
        response: responses({ 200: ChangeResultResponseSchema }),
      },
    },
    async (request) => ({
      result: await applyProfile(ctx, request.params.profileId, request.body, { ip: request.ip }),
    }),
  );

  // Emergency Stop and Emergency Resume: the same call with the toggle's two positions.
  for (const [path, stop] of [
    ['emergency-stop', true],
    ['emergency-resume', false],
  ] as const) {
    app.post(
      `/api/admin/configurations/${path}`,
      {
        schema: {
          summary: stop
            ? 'Emergency stop: tell every bot to stop at once'
            : 'Emergency resume: tell every bot to carry on',
          body: EmergencyRequestSchema,
          response: responses({ 200: EmergencyResultSchema }),
        },
      },
      async (request) => switchNetwork(ctx, stop, request.body, { ip: request.ip }),
    );
  }

  app.get(
    '/api/admin/configurations/history',
    {
      schema: {
        summary: "The newest configuration changes with each bot's outcome, newest first",
        querystring: HistoryQuerySchema,
        response: responses({ 200: ConfigurationHistorySchema }),
      },
    },
    async (request) => ({ changes: await listHistory(ctx, request.query.limit) }),
  );

  app.post(
    '/api/admin/configurations/history/:id/rollback',
    {
      schema: {
        summary: 'Roll a parameter change back: each bot gets its values from before it',
        params: IdParamsSchema,
        body: RollbackRequestSchema,
        response: responses({ 200: ChangeResultResponseSchema }),
      },
    },
    async (request) => ({
      result: await rollbackChange(ctx, request.params.id, request.body, { ip: request.ip }),
    }),
  );

  // Pushes a bot has not answered within CONFIG_ACK_DEADLINE_MS fail. The deadlines are in the
  // database, so any instance's sweep settles them, whichever instance sent the frame.
  schedulePeriodicSweep(app, {
    name: 'configuration pushes past their acknowledgement deadline',
    everyMs: Math.min(1000, ctx.config.CONFIG_ACK_DEADLINE_MS / 2),
    run: async () => {
      await expireUnacknowledged(ctx);
      // It settles targets and deletes nothing: 0 keeps the sweep's "deleted" log line quiet.
      return 0;
    },
  });
};
