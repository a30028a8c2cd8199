import type { Feature } from '../../feature.ts';
import { adminProtocol } from './admin.protocol.ts';
import { botProtocol } from './bot.protocol.ts';
import { botEnrollmentRoutes } from './bot-enrollment.routes.ts';
import { createBotEventBudget } from './bot-event-budget.ts';
import { EnrolledBots } from './enrolled-bots.ts';
import { fleetRoutes, registerFleet } from './fleet.routes.ts';
import { Fleet } from './fleet.service.ts';
import { fleetAdminRoutes } from './fleet-admin.routes.ts';

/**
 * Scanner bots: the fleet's state and event stream, POST /api/bot/events, enrollment (each bot its
 * own credential), removal, and the socket protocols of /ws. What the features above it do for a bot (its configuration, its pool leases)
 * they add as services of their own (botSocketHooks, httpBotFrames, releaseBotServers,
 * deleteBotConfiguration).
 */
export const fleetFeature = {
  name: 'fleet',
  services: (ctx, app) => ({
    fleet: new Fleet(ctx, app.log, app.writer),
    botEventBudget: createBotEventBudget(ctx.config),
    enrolledBots: new EnrolledBots(ctx, app.log),
  }),
  jobs: registerFleet,
  routes: [fleetRoutes, botEnrollmentRoutes, fleetAdminRoutes],
  // Tried in this order on /ws: an admin session cookie first, then a bot token.
  protocols: (ctx) => [adminProtocol(ctx), botProtocol(ctx, ctx.services.botSocketHooks)],
} satisfies Feature;
