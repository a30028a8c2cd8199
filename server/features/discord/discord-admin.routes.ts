import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DiscordCheckResponseSchema, DiscordRoleGrantsResponseSchema } from '../../../common/discord.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { checkDiscord } from './discord-rest-check.ts';
import { getDiscordSettings } from './discord-settings.ts';

/** System Configuration → Discord's check and the premium role's grants (admin session). */
export const discordAdminRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/admin/discord/check',
    {
      schema: {
        summary:
          'Read the application and the guild with the bot token and say what is missing (settings, permissions, the role order)',
        response: responses({ 200: DiscordCheckResponseSchema }),
      },
    },
    async () => {
      const result = await checkDiscord(ctx.services.discordRoles.rest, await getDiscordSettings(ctx));
      return {
        ok: result.ok,
        problems: result.problems,
        application: result.application,
        guild: result.guild,
      };
    },
  );

  app.get(
    '/api/admin/discord/role-grants',
    {
      schema: {
        summary:
          "Each Discord user's premium role: state, attempts, the last error and the next retry of a failed change",
        response: responses({ 200: DiscordRoleGrantsResponseSchema }),
      },
    },
    async () => ({ grants: await ctx.services.discordRoles.sync.list() }),
  );
};
