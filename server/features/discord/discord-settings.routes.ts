import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DiscordSettingsResponseSchema, UpdateDiscordSettingsSchema } from '../../../common/discord.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { presentDiscordSettings, updateDiscordSettings } from './discord-settings.ts';

/** System Configuration → Discord (admin session). */
export const discordSettingsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get(
    '/api/admin/discord/settings',
    {
      schema: {
        summary: 'Read the Discord settings in effect (the bot token masked) and the interactions path',
        response: responses({ 200: DiscordSettingsResponseSchema }),
      },
    },
    async () => ({ settings: await presentDiscordSettings(ctx) }),
  );

  app.put(
    '/api/admin/discord/settings',
    {
      schema: {
        summary:
          'Change the Discord settings: an absent field is kept, null clears it; a field the environment sets is a 400',
        body: UpdateDiscordSettingsSchema,
        response: responses({ 200: DiscordSettingsResponseSchema }),
      },
    },
    async (request) => {
      const settings = await updateDiscordSettings(ctx, request.body, { ip: request.ip });
      ctx.services.discordRoles.settingsChanged();
      return { settings };
    },
  );
};
