import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Fleet } from '../fleet/fleet.service.ts';
import { type NotificationDispatcher, startNotificationDispatcher } from './dispatcher.ts';
import { NotificationOutbox } from './notification-outbox.ts';
import { outboundPolicyOf } from './notifications.service.ts';

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
 * Runs the notifications on the root instance. When the app is ready (before a bot can report a
 * find): the destinations are loaded, and the dispatcher starts (unless NOTIFY_DISPATCH=false); it
 * sends only while it holds the cluster's lease, so every instance may run one. When the app closes
 * (graceful shutdown: app.close()), the dispatcher's lanes end after the posts in flight and gives the
 * lease up, so another instance takes over at once rather than after the lease expires.
 */
export function registerNotifications(app: FastifyInstance, ctx: AppContext): void {
  const outbox = ctx.services.notificationOutbox;
  let dispatcher: NotificationDispatcher | undefined;
  app.addHook('onReady', async () => {
    await outbox.start();
    if (!ctx.config.NOTIFY_DISPATCH) return;
    dispatcher = startNotificationDispatcher({
      db: ctx.db,
      dialect: ctx.dialect,
      clock: ctx.now,
      logger: app.log,
      policy: outboundPolicyOf(ctx),
      joinUrlTemplate: ctx.config.NOTIFY_JOIN_URL_TEMPLATE ?? null,
      limits: ctx.services.notificationRateLimits,
      onSettled: (outcome, rows) => ctx.services.metrics.notificationsDelivered(outcome, rows),
      // Two instances on one host (or two test apps in one process) hold the lease apart.
      instanceId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    });
  });
  app.addHook('onClose', async () => {
    outbox.close();
    await dispatcher?.stop();
  });
}
