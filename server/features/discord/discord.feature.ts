import type { Feature } from '../../feature.ts';
import { discordSettingsRoutes } from './discord-settings.routes.ts';
import { InteractionDesk } from './interaction-desk.ts';
import { interactionsRoutes } from './interactions.routes.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Runs Discord's slash commands (server/features/discord/interaction-desk.ts). */
    discordDesk: InteractionDesk;
  }
}

/** Discord as the buyer's desk: the interactions endpoint, its commands and the settings. */
export const discordFeature = {
  name: 'discord',
  services: (ctx, app) => ({ discordDesk: new InteractionDesk(ctx, app.log) }),
  routes: [interactionsRoutes, discordSettingsRoutes],
} satisfies Feature;
