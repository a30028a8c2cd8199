import type { Feature } from '../../feature.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { createNotificationOutbox, registerNotifications } from './notifications-lifecycle.ts';
import { RateLimiter } from './rate-limits.ts';

/** Where finds are posted (Discord webhooks, JSON endpoints): destinations, the outbox, the dispatcher. */
export const notificationsFeature = {
  name: 'notifications',
  // Finds' outbox rows ride with the fleet's discovery writes (the fleet is listed before this feature).
  services: (ctx, app) => ({
    notificationOutbox: createNotificationOutbox(ctx, app.log, ctx.services.fleet),
    notificationRateLimits: new RateLimiter(ctx.now),
  }),
  jobs: registerNotifications,
  routes: [notificationsRoutes],
} satisfies Feature;
