import { randomBytes } from 'node:crypto';
import { ORDER_ID_PATTERN, ORDER_PAGE_PREFIX, ORDER_TEXTS } from '../../../common/order-texts.ts';
import {
  type CreateOrderResponse,
  ORDER_PRICE,
  type OrderStatusResponse,
  type WebhookOutcome,
} from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { secretsEqual, sha256 } from '../auth/secret.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { getSystemConfiguration } from '../system/system.service.ts';
import { countUsedSlots } from '../system/system.store.ts';
import { BtcpayRefusedError, BtcpayUnavailableError, createInvoice, type Invoice } from './btcpay-client.ts';
import { verifySettledInvoice } from './invoice-check.ts';
import { holdUnmatchedPayment, issueOrderCode, paymentFigures } from './order-settlement.service.ts';
import {
  claimOrderPaid,
  endPendingOrder,
  expireOrderIfDue,
  extendPendingOrder,
  findOrderById,
  insertOrder,
  insertWebhookDelivery,
  lockSlots,
  markOrderChecked,
  type NewWebhookDelivery,
  type OrderRow,
  setOrderInvoice,
} from './orders.store.ts';
import { getEffectivePaymentSettings } from './payment-settings.service.ts';

/** A new order holds its slot this long before its invoice exists (creating it takes at most 10 s). */
export const RESERVATION_MS = 2 * 60_000;
/** A paid invoice waiting for confirmations (Processing) keeps its order's slot at least this long. */
export const PROCESSING_HOLD_MS = 24 * 60 * 60_000;

/** 503 for the buyer; `reason` (BTCPay's failure, never the key) is for the log. */
export class ProcessorUnavailableError extends HttpError {
  constructor(readonly reason: string) {
    super(503, ORDER_TEXTS.processorUnavailable);
  }
}

/** Whether `secret` is the order's, compared in constant time. */
function secretMatches(order: OrderRow, secret: string): boolean {
  return secretsEqual(sha256(secret), order.secret_hash);
}

/**
 * A buyer's new order: a slot held at once (or 409 Sold Out), then BTCPay's invoice. The slot is
 * decided in one transaction that serializes every order (lockSlots), so two buyers never get the
 * last one; the invoice is created outside it, so a slow BTCPay holds no lock.
 */
export async function createOrder(
  ctx: AppContext,
  request: { ip: string; publicBase: string },
): Promise<CreateOrderResponse> {
  const settings = await getEffectivePaymentSettings(ctx);
  const connection = settings.connection;
  if (!connection) throw notFound(ORDER_TEXTS.notAvailable);
  const { totalSlots } = await getSystemConfiguration(ctx);
  const orderId = randomBytes(12).toString('base64url');
  const secret = randomBytes(16).toString('base64url');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockSlots(trx, ctx.dialect);
    if ((await countUsedSlots(trx, now)) >= totalSlots) throw conflict(ORDER_TEXTS.soldOut);
    await insertOrder(trx, {
      id: orderId,
      secret_hash: sha256(secret),
      status: 'pending',
      invoice_id: null,
      checkout_link: null,
      amount: ORDER_PRICE.amount,
      currency: ORDER_PRICE.currency,
      key_type: settings.delivery.keyType,
      validity_hours: settings.delivery.validityHours,
      max_hardware_bindings: settings.delivery.maxHardwareBindings,
      redemption_key_id: null,
      redemption_code: null,
      client_ip: request.ip,
      created_at: now,
      expires_at: now + RESERVATION_MS,
      paid_at: null,
      ended_at: null,
      checked_at: null,
    });
  });

  // The secret rides only in the fragment, which browsers never send: it reaches no log.
  const redirectUrl = `${request.publicBase}${ORDER_PAGE_PREFIX}${orderId}#${secret}`;
  let invoice: Awaited<ReturnType<typeof createInvoice>>;
  try {
    invoice = await createInvoice(connection, orderId, redirectUrl);
  } catch (error) {
    if (!(error instanceof BtcpayUnavailableError || error instanceof BtcpayRefusedError)) throw error;
    // Marked invalid rather than deleted: its slot frees at once, and the operator's Orders list
    // still shows the attempt that BTCPay did not take.
    await endPendingOrder(ctx.db, orderId, 'invalid', ctx.now());
    throw new ProcessorUnavailableError(error.message);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await setOrderInvoice(trx, orderId, {
      invoiceId: invoice.id,
      checkoutLink: invoice.checkoutLink,
      expiresAt: invoice.expiresAt,
    });
    await insertAuditLog(
      trx,
      {
        eventType: 'order_created',
        success: true,
        ipAddress: request.ip,
        details: { orderId, invoiceId: invoice.id, ip: request.ip },
      },
      ctx.now(),
    );
  });
  return { orderId, checkoutLink: invoice.checkoutLink };
}

/** The order as its page shows it; an unknown id and a wrong secret get the same 404. */
export async function readOrderStatus(
  ctx: AppContext,
  orderId: string,
  secret: string,
): Promise<OrderStatusResponse> {
  const order = ORDER_ID_PATTERN.test(orderId) ? await findOrderById(ctx.db, orderId) : undefined;
  if (!order || !secretMatches(order, secret)) throw notFound(ORDER_TEXTS.notFound);
  let status = order.status;
  if (status === 'pending' && order.expires_at <= ctx.now()) {
    // Its hold ran out (no webhook yet): it reads, and is recorded, as expired. A payment that still
    // settles later makes it paid all the same.
    await expireOrder(ctx, order, 'hold_ran_out');
    status = 'expired';
  }
  return {
    status,
    ...(status === 'paid' && order.redemption_code ? { code: order.redemption_code } : {}),
    keyType: order.key_type,
    validityHours: order.validity_hours,
    expiresAt: new Date(order.expires_at).toISOString(),
    ...(status === 'pending' && order.checkout_link ? { checkoutLink: order.checkout_link } : {}),
    ...paymentFigures(order),
  };
}

/** Expires a pending order whose hold ran out, with its audit row; false when another did first. */
export async function expireOrder(ctx: AppContext, order: OrderRow, reason: string): Promise<boolean> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await expireOrderIfDue(trx, order.id, now))) return false;
    await insertAuditLog(
      trx,
      {
        eventType: 'order_expired',
        success: true,
        details: { orderId: order.id, invoiceId: order.invoice_id, status: 'expired', reason },
      },
      now,
    );
    return true;
  });
}

/** Who read the invoice: a webhook delivery (recorded with its effect) or the reconciler. */
export type InvoiceSource =
  | { via: 'webhook'; delivery: Omit<NewWebhookDelivery, 'outcome' | 'orderId' | 'invoiceId'> }
  | { via: 'reconciler' };

/**
 * Brings an order in line with its invoice as BTCPay Server has it (never as a webhook's body says):
 * Settled makes it paid with exactly one code, or holds it as underpaid / mismatch when the invoice
 * does not pay its price (invoice-check.ts); Expired / Invalid end it; Processing keeps its slot.
 * Everything it changes, and the webhook delivery that caused it, commit in one transaction.
 */
export async function applyInvoice(
  ctx: AppContext,
  order: OrderRow,
  invoice: Invoice,
  source: InvoiceSource,
): Promise<WebhookOutcome> {
  const now = ctx.now();
  const record = async (trx: Db, outcome: WebhookOutcome) => {
    if (source.via === 'webhook') {
      await insertWebhookDelivery(
        trx,
        { ...source.delivery, invoiceId: invoice.id, orderId: order.id, outcome },
        now,
      );
    } else {
      await markOrderChecked(trx, order.id, now);
    }
    return outcome;
  };
  let codeCreated = false;
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<WebhookOutcome> => {
    // An order found through the invoice's metadata (a crash before its invoice id was stored).
    if (order.invoice_id === null && invoice.expiresAt !== null) {
      await setOrderInvoice(trx, order.id, {
        invoiceId: invoice.id,
        checkoutLink: null,
        expiresAt: invoice.expiresAt,
      });
    }
    switch (invoice.status) {
      case 'Settled': {
        // BTCPay says settled; whether that pays for this order is checked, never assumed.
        const verdict = verifySettledInvoice(order, invoice);
        if (verdict.status !== 'paid') {
          const held = await holdUnmatchedPayment(trx, order, invoice.id, verdict, source.via, now);
          return record(trx, held ? verdict.status : 'unchanged');
        }
        if (!(await claimOrderPaid(trx, order.id, now))) return record(trx, 'already_paid');
        await issueOrderCode(trx, order, { invoiceId: invoice.id, via: source.via }, now);
        codeCreated = true;
        return record(trx, 'paid');
      }
      case 'Expired':
      case 'Invalid': {
        const status = invoice.status === 'Expired' ? 'expired' : 'invalid';
        if (!(await endPendingOrder(trx, order.id, status, now))) return record(trx, 'unchanged');
        await insertAuditLog(
          trx,
          {
            eventType: 'order_expired',
            success: true,
            details: { orderId: order.id, invoiceId: invoice.id, status, via: source.via },
          },
          now,
        );
        return record(trx, status);
      }
      case 'Processing':
        // Paid, waiting for confirmations: the buyer keeps the slot they paid for.
        await extendPendingOrder(trx, order.id, now + PROCESSING_HOLD_MS);
        return record(trx, 'unchanged');
      default:
        return record(trx, 'unchanged');
    }
  });
  if (codeCreated) await announceLicensingChanged(ctx, 'redemption_code');
  return outcome;
}
