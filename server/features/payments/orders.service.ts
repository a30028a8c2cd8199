import {
  ORDER_ID_PATTERN,
  ORDER_LOOKUP_TEXTS,
  ORDER_TEXTS,
  orderCheckoutPath,
} from '../../../common/order-texts.ts';
import type { OrderLookupResponse, OrderStatusResponse } from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http-error.ts';
import { secretsEqual, sha256 } from '../auth/secret.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { openOrderLink, spendLookupTime } from './order-recovery.ts';
import { paymentFigures } from './order-settlement.service.ts';
import {
  expireOrderIfDue,
  findOrderById,
  findOrderByInvoiceId,
  isOrderCodeRedeemed,
  type OrderRow,
} from './orders.store.ts';

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
    // Paid in full and confirming: no way to pay again is offered.
    ...(status === 'pending' && order.checkout_link && order.payment_state !== 'processing'
      ? { checkoutLink: `${publicBase}${orderCheckoutPath(order.id)}` }
      : {}),
    ...paymentFigures(order),
    ...(order.payment_state && (status === 'pending' || status === 'paid')
      ? { payment: order.payment_state }
      : {}),
    ...(status === 'paid' && (await isOrderCodeRedeemed(ctx.db, order)) ? { redeemed: true } : {}),
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

/**
 * A lost order page, found by the invoice id on BTCPay's receipt plus the e-mail given at Pay now:
 * the order link with its secret. An unknown invoice, a wrong e-mail and an order placed without
 * one all get the same 404 (and take the same work), so the call tells nothing about which it was.
 */
export async function lookUpOrder(
  ctx: AppContext,
  request: { invoiceId: string; email: string },
): Promise<OrderLookupResponse> {
  const order = await findOrderByInvoiceId(ctx.db, request.invoiceId);
  if (!order?.sealed_link || !order.buyer_email) {
    spendLookupTime(request.email);
    throw notFound(ORDER_LOOKUP_TEXTS.notFound);
  }
  const orderLink = openOrderLink(order.sealed_link, request.email, order.id);
  if (!orderLink) throw notFound(ORDER_LOOKUP_TEXTS.notFound);
  return { orderId: order.id, orderLink };
}
