import { ORDER_TEXTS } from '../../../common/order-texts.ts';
import type { AdminOrder, Money, OrderResolution, OrderStatus } from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { conflict, notFound } from '../../http-error.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertNewRedemptionCode } from '../redemption/redemption.service.ts';
import { insertAuditLog } from '../security/security.store.ts';
import type { PaymentVerdict } from './invoice-check.ts';
import { markOrderMailDue } from './order-mail.store.ts';
import { kickOrderMail, mailing } from './order-mail.ts';
import { claimHeldOrderPaid, holdOrderUnmatched, markHeldOrderRefunded } from './order-settlement.store.ts';
import { findOrderById, type OrderRow, setOrderCode } from './orders.store.ts';
import {
  deliveryRowToWebhookDelivery,
  listDeliveryRowsOfOrders,
  orderRowToAdminOrder,
} from './orders-admin.store.ts';

/*
 * What a settled invoice ends in: the order's one code, or (when the invoice does not match the
 * order's price) an order held as underpaid or mismatch for the operator, who issues its code anyway
 * or records the payment as refunded.
 */

/** Who decided: the webhook, the reconciler, or the operator. */
export type SettlementVia = 'webhook' | 'reconciler' | 'admin';

/**
 * Creates the code of an order just claimed paid (claimOrderPaid / claimHeldOrderPaid) and names it
 * on the order, with its `order_paid` audit row. Runs in the claim's transaction.
 */
export async function issueOrderCode(
  trx: Db,
  order: OrderRow,
  source: { invoiceId: string | null; via: SettlementVia; ip?: string | null; mail: boolean },
  now: number,
): Promise<void> {
  const code = await insertNewRedemptionCode(
    trx,
    {
      keyType: order.key_type,
      maxHardwareBindings: order.max_hardware_bindings,
      validityDuration: order.validity_hours,
      expiresAt: null,
      notes: `Order ${order.id} (BTCPay invoice ${source.invoiceId ?? 'none'})`,
    },
    { ip: source.ip ?? null, details: { orderId: order.id, invoiceId: source.invoiceId } },
    now,
  );
  await setOrderCode(trx, order.id, { redemptionKeyId: code.id, redemptionCode: code.redemptionCode });
  // The mail is decided here, in the one transaction that makes the code: once, whichever instance.
  if (source.mail && order.buyer_email) await markOrderMailDue(trx, order.id, now);
  await insertAuditLog(
    trx,
    {
      eventType: 'order_paid',
      success: true,
      licenseKey: code.redemptionCode,
      ipAddress: source.ip ?? null,
      details: {
        orderId: order.id,
        invoiceId: source.invoiceId,
        redemptionKeyId: code.id,
        keyType: order.key_type,
        via: source.via,
      },
    },
    now,
  );
}

/**
 * Holds an order whose settled invoice does not match its price (no code), with what was received
 * and an `order_payment_mismatch` audit row. False when the order was no longer open (a twin did it).
 */
export async function holdUnmatchedPayment(
  trx: Db,
  order: OrderRow,
  invoiceId: string,
  verdict: Exclude<PaymentVerdict, { status: 'paid' }>,
  via: SettlementVia,
  now: number,
): Promise<boolean> {
  if (!(await holdOrderUnmatched(trx, order.id, verdict.status, verdict.received, now))) return false;
  await insertAuditLog(
    trx,
    {
      eventType: 'order_payment_mismatch',
      success: false,
      details: {
        orderId: order.id,
        invoiceId,
        status: verdict.status,
        expected: { amount: order.amount, currency: order.currency },
        received: verdict.received,
        via,
      },
    },
    now,
  );
  return true;
}

/** What the buyer's page shows of a payment that did not match: the price and what was received. */
export function paymentFigures(order: OrderRow): { expected?: Money; received?: Money } {
  if (order.received_amount === null || order.received_currency === null) return {};
  const partOrOver = order.payment_state === 'partial' || order.payment_state === 'over';
  if ((order.status === 'pending' || order.status === 'paid') && !partOrOver) return {};
  return {
    expected: { amount: order.amount, currency: order.currency },
    received: { amount: order.received_amount, currency: order.received_currency },
  };
}

/** The statuses that wait for the operator's decision. */
const HELD_STATUSES: readonly OrderStatus[] = ['underpaid', 'mismatch'];

/**
 * The operator's decision on an underpaid or mismatched order: `issue_code` makes its code as a
 * full payment would; `refunded` ends it without one. 404 for an unknown order, 409 for one that
 * is not waiting for a decision (including a twin that decided first). Audited as `order_resolved`.
 */
export async function resolveHeldOrder(
  ctx: AppContext,
  orderId: string,
  action: OrderResolution,
  caller: { ip: string },
): Promise<AdminOrder> {
  const order = await findOrderById(ctx.db, orderId);
  if (!order) throw notFound(ORDER_TEXTS.notFound);
  const notWaiting = () =>
    conflict(`Only an underpaid or mismatched order can be resolved; this one is ${order.status}`);
  if (!HELD_STATUSES.includes(order.status)) throw notWaiting();
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (action === 'issue_code') {
      if (!(await claimHeldOrderPaid(trx, order.id, now))) throw notWaiting();
      const source = {
        invoiceId: order.invoice_id,
        via: 'admin' as const,
        ip: caller.ip,
        mail: mailing(ctx),
      };
      await issueOrderCode(trx, order, source, now);
    } else if (!(await markHeldOrderRefunded(trx, order.id, now))) {
      throw notWaiting();
    }
    await insertAuditLog(
      trx,
      {
        eventType: 'order_resolved',
        success: true,
        ipAddress: caller.ip,
        details: {
          orderId: order.id,
          invoiceId: order.invoice_id,
          action,
          was: order.status,
          expected: { amount: order.amount, currency: order.currency },
          received: { amount: order.received_amount, currency: order.received_currency },
        },
      },
      now,
    );
  });
  if (action === 'issue_code') {
    await announceLicensingChanged(ctx, 'redemption_code');
    kickOrderMail(ctx, order.id);
  }
  const resolved = await findOrderById(ctx.db, order.id);
  if (!resolved) throw notFound(ORDER_TEXTS.notFound);
  const deliveries = await listDeliveryRowsOfOrders(ctx.db, [order.id]);
  return orderRowToAdminOrder(resolved, deliveries.map(deliveryRowToWebhookDelivery));
}
