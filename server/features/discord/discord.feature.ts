import type { Feature } from '../../feature.ts';
import { discordAdminRoutes } from './discord-admin.routes.ts';
import { discordSettingsRoutes } from './discord-settings.routes.ts';
import { InteractionDesk } from './interaction-desk.ts';
import { interactionsRoutes } from './interactions.routes.ts';
import { DiscordRoles } from './premium-role.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Runs Discord's slash commands (server/features/discord/interaction-desk.ts). */
    discordDesk: InteractionDesk;
    /** Command registration and the premium role (server/features/discord/premium-role.ts). */
    discordRoles: DiscordRoles;
  }
}

/** Discord as the buyer's desk: the interactions endpoint, its commands and the settings. */
export const discordFeature = {
  name: 'discord',
  services: (ctx, app) => ({
    discordDesk: new InteractionDesk(ctx, app.log),
    discordRoles: new DiscordRoles(ctx, app.log),
  }),
  jobs: (app, ctx) => {
    app.addHook('onReady', async () => ctx.services.discordRoles.start());
    app.addHook('onClose', () => ctx.services.discordRoles.stop());
  },
  routes: [interactionsRoutes, discordSettingsRoutes, discordAdminRoutes],
} satisfies Feature;
