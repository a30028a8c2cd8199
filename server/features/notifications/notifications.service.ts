import {
  type Delivery,
  type Destination,
  type DestinationInput,
  DestinationInputSchema,
  type DestinationPatch,
} from '../../../common/notifications.ts';
import type { AppContext } from '../../context.ts';
import { badRequest, HttpError, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  type DeliveryFilter,
  dropDeliveriesOfOtherItem,
  findDeliveryState,
  listDeliveries as listDeliveryRows,
  retryFailedDelivery,
} from './deliveries.store.ts';
import { sendTestFind, type TestSendResult } from './destination-posts.ts';
import type { NotificationOutbox } from './notification-outbox.ts';
import {
  type DestinationRow,
  deleteDestination as deleteDestinationRow,
  destinationRowToDestination,
  destinationRowToInput,
  destinationStats,
  findDestinationRow,
  insertDestination,
  listDestinationRows,
  updateDestination as updateDestinationRow,
} from './notifications.store.ts';
import { checkOutboundUrl, OutboundUrlError } from './outbound-request.ts';
import type { RateLimiter } from './rate-limits.ts';
import { hostOfUrl } from './webhook-url.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Finds' outbox rows, written with the finds (the destinations kept in memory). */
    notificationOutbox: NotificationOutbox;
    /** Discord's rate limits as this process learned them: the dispatcher's lanes and Send test share it. */
    notificationRateLimits: RateLimiter;
  }
}

/** Who asked, for the audit log. */
export interface Caller {
  ip: string;
}

export const NOTIFICATION_TEXTS = {
  unknownDestination: (id: number) => `Unknown destination: ${id}`,
  unknownDelivery: (id: number) => `Unknown delivery: ${id}`,
  notFailed: (id: number) => `Delivery ${id} has not failed: only a failed delivery can be retried`,
} as const;

/** The outbound rules of this server (NOTIFY_ALLOW_HOSTS, NOTIFY_ALLOW_PRIVATE). */
export function outboundPolicyOf(ctx: AppContext) {
  return { allowHosts: ctx.config.NOTIFY_ALLOW_HOSTS, allowPrivate: ctx.config.NOTIFY_ALLOW_PRIVATE };
}

/** Refuses a URL the outbound rules refuse, with a 400 naming the rule. */
async function checkDestinationUrl(ctx: AppContext, input: DestinationInput): Promise<void> {
  try {
    await checkOutboundUrl(input.url, input.kind, outboundPolicyOf(ctx));
  } catch (error) {
    if (error instanceof OutboundUrlError) throw badRequest(`url: ${error.message}`);
    throw error;
  }
}

/** What an audit row says of a destination: never its URL (the token is a secret), only the host. */
function auditedDestination(id: number, input: DestinationInput) {
  return {
    destinationId: id,
    name: input.name,
    kind: input.kind,
    host: hostOfUrl(input.url),
    alerts: input.alerts,
  };
}

async function presented(ctx: AppContext, row: DestinationRow): Promise<Destination> {
  return destinationRowToDestination(row, await destinationStats(ctx.db, row.id));
}

async function destinationRowOf(ctx: AppContext, id: number): Promise<DestinationRow> {
  const row = await findDestinationRow(ctx.db, id);
  if (!row) throw notFound(NOTIFICATION_TEXTS.unknownDestination(id));
  return row;
}

export async function listDestinations(ctx: AppContext): Promise<Destination[]> {
  const rows = await listDestinationRows(ctx.db);
  return Promise.all(rows.map((row) => presented(ctx, row)));
}

export async function createDestination(
  ctx: AppContext,
  input: DestinationInput,
  caller: Caller,
): Promise<Destination> {
  await checkDestinationUrl(ctx, input);
  const now = ctx.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const created = await insertDestination(trx, input, now);
    await insertAuditLog(
      trx,
      {
        eventType: 'notification_destination_created',
        success: true,
        ipAddress: caller.ip,
        details: auditedDestination(created, input),
      },
      now,
    );
    return created;
  });
  await ctx.services.notificationOutbox.destinationsChanged();
  return presented(ctx, await destinationRowOf(ctx, id));
}

/**
 * Changes the parts of destination `id` the admin sent. The URL is checked again when it or the
 * kind changes; enabling a destination the dispatcher turned off clears its reason.
 */
export async function updateDestination(
  ctx: AppContext,
  id: number,
  patch: DestinationPatch,
  caller: Caller,
): Promise<Destination> {
  const before = destinationRowToInput(await destinationRowOf(ctx, id));
  const parsed = DestinationInputSchema.safeParse({ ...before, ...patch });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid destination');
  }
  const input = parsed.data;
  if (input.url !== before.url || input.kind !== before.kind) await checkDestinationUrl(ctx, input);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await updateDestinationRow(trx, id, input, now, patch.enabled === true))) {
      throw notFound(NOTIFICATION_TEXTS.unknownDestination(id));
    }
    if (input.alerts !== before.alerts) await dropDeliveriesOfOtherItem(trx, id, input.alerts);
    await insertAuditLog(
      trx,
      {
        eventType: 'notification_destination_updated',
        success: true,
        ipAddress: caller.ip,
        // Which settings changed, by name: the URL's value is a secret.
        details: { ...auditedDestination(id, input), changed: Object.keys(patch).sort() },
      },
      now,
    );
  });
  await ctx.services.notificationOutbox.destinationsChanged();
  return presented(ctx, await destinationRowOf(ctx, id));
}

/** Deletes destination `id` with its deliveries. */
export async function deleteDestination(ctx: AppContext, id: number, caller: Caller): Promise<void> {
  const input = destinationRowToInput(await destinationRowOf(ctx, id));
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteDestinationRow(trx, id))) throw notFound(NOTIFICATION_TEXTS.unknownDestination(id));
    await insertAuditLog(
      trx,
      {
        eventType: 'notification_destination_deleted',
        success: true,
        ipAddress: caller.ip,
        details: auditedDestination(id, input),
      },
      now,
    );
  });
  await ctx.services.notificationOutbox.destinationsChanged();
}

export async function listDeliveries(ctx: AppContext, filter: DeliveryFilter): Promise<Delivery[]> {
  return listDeliveryRows(ctx.db, filter);
}

/** Queues failed delivery `id` again (pending, attempts 0, due now); 404 unknown, 409 not failed. */
export async function retryDelivery(ctx: AppContext, id: number, caller: Caller): Promise<Delivery> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await retryFailedDelivery(trx, id, now))) {
      const state = await findDeliveryState(trx, id);
      if (state === null) throw notFound(NOTIFICATION_TEXTS.unknownDelivery(id));
      throw new HttpError(409, NOTIFICATION_TEXTS.notFailed(id));
    }
    await insertAuditLog(
      trx,
      {
        eventType: 'notification_delivery_retried',
        success: true,
        ipAddress: caller.ip,
        details: { deliveryId: id },
      },
      now,
    );
  });
  const [delivery] = await listDeliveryRows(ctx.db, { id, limit: 1 });
  if (!delivery) throw notFound(NOTIFICATION_TEXTS.unknownDelivery(id));
  return delivery;
}

/**
 * Posts a sample find (an alerts destination: a sample alert) to destination `id` now (not through
 * the outbox, but through the rate limiter the lanes use) and says how it went.
 */
export async function sendTestNotification(ctx: AppContext, id: number): Promise<TestSendResult> {
  const row = await destinationRowOf(ctx, id);
  return sendTestFind(
    row,
    outboundPolicyOf(ctx),
    ctx.config.NOTIFY_JOIN_URL_TEMPLATE ?? null,
    ctx.services.notificationRateLimits,
  );
}
