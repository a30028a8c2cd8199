import { ORDER_ID_PATTERN, ORDER_TEXTS, orderCheckoutPath } from '../../../common/order-texts.ts';
import type { OrderStatusResponse, WebhookOutcome } from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../http-error.ts';
import { secretsEqual, sha256 } from '../auth/secret.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertAuditLog } from '../security/security.store.ts';
import type { Invoice } from './btcpay-client.ts';
import { verifySettledInvoice } from './invoice-check.ts';
import { holdUnmatchedPayment, issueOrderCode, paymentFigures } from './order-settlement.service.ts';
import {
  claimOrderPaid,
  endPendingOrder,
  expireOrderIfDue,
  extendPendingOrder,
  findOrderById,
  insertWebhookDelivery,
  markOrderChecked,
  type NewWebhookDelivery,
  type OrderRow,
  setOrderInvoice,
} from './orders.store.ts';

/** A paid invoice waiting for confirmations (Processing) keeps its order's slot at least this long. */
export const PROCESSING_HOLD_MS = 24 * 60 * 60_000;

/** Whether `secret` is the order's, compared in constant time. */
function secretMatches(order: OrderRow, secret: string): boolean {
  return secretsEqual(sha256(secret), order.secret_hash);
}

/**
 * The order as its page shows it; an unknown id and a wrong secret get the same 404. While pending,
 * its checkout link is the app's (`publicBase` + /api/public/orders/{id}/checkout), as when it was placed.
 */
export async function readOrderStatus(
  ctx: AppContext,
  orderId: string,
  secret: string,
  publicBase = '',
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
    ...(status === 'pending' && order.checkout_link
      ? { checkoutLink: `${publicBase}${orderCheckoutPath(order.id)}` }
      : {}),
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
