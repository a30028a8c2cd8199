import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Fleet } from '../fleet/fleet.service.ts';
import { NotificationOutbox } from './notification-outbox.ts';

/**
 * Builds the notifications' outbox writer and hooks it into the fleet's discovery writes (so each
 * matching find's outbox row is written in the transaction that stores the find). Called by buildApp
 * while it fills in the services, before any feature registers.
 */
export function createNotificationOutbox(
  ctx: AppContext,
  log: FastifyBaseLogger,
  fleet: Fleet,
): NotificationOutbox {
  const outbox = new NotificationOutbox(ctx, log);
  fleet.alsoWriteWithDiscoveries(outbox.writeWithDiscoveries);
  return outbox;
}

/**
 * Runs the notifications on the root instance: the destinations are loaded when the app is ready
 * (before a bot can report a find) and the reload timer stops when it closes.
 */
export function registerNotifications(app: FastifyInstance, ctx: AppContext): void {
  const outbox = ctx.services.notificationOutbox;
  app.addHook('onReady', () => outbox.start());
  app.addHook('onClose', async () => outbox.close());
}
