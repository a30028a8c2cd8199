import type { WebhookOutcome } from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { countSlots, getSystemConfiguration } from '../system/system.service.ts';
import type { Invoice } from './btcpay-client.ts';
import { readInvoice } from './invoice-check.ts';
import { kickOrderMail, mailing } from './order-mail.ts';
import { holdUnmatchedPayment, issueOrderCode } from './order-settlement.service.ts';
import { recordPaidDetails, recordPendingPayment } from './order-settlement.store.ts';
import {
  claimOrderPaid,
  endPendingOrder,
  extendPendingOrder,
  insertWebhookDelivery,
  markOrderChecked,
  type NewWebhookDelivery,
  type OrderRow,
  setOrderInvoice,
} from './orders.store.ts';

/** A paid invoice waiting for confirmations (Processing) keeps its order's slot at least this long. */
export const PROCESSING_HOLD_MS = 24 * 60 * 60_000;

/** Who read the invoice: a webhook delivery (recorded with its effect) or the reconciler. */
export type InvoiceSource =
  | { via: 'webhook'; delivery: Omit<NewWebhookDelivery, 'outcome' | 'orderId' | 'invoiceId'> }
  | { via: 'reconciler' };

/**
 * Brings an order in line with its invoice as BTCPay Server has it (never as a webhook's body says),
 * as invoice-check.ts readInvoice reads it: Settled, or Expired + PaidLate, makes it paid with exactly
 * one code (held as underpaid / mismatch when the invoice does not pay its price); a late payment
 * takes a slot again, and when none is free the order says so to the operator (slot_shortfall, an
 * `order_paid_without_slot` audit row); Expired / Invalid end it (held as underpaid when part of the
 * price arrived); Processing keeps its slot; a partial payment on an open invoice is shown to the
 * buyer. Everything it changes, and the webhook delivery that caused it, commit in one transaction.
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
  const reading = readInvoice(order, invoice);
  // A late payment takes a slot again: how many there are is read before the transaction (on
  // SQLite the transaction holds the one connection).
  const lateClaim = reading.kind === 'paid' && order.status !== 'pending';
  const totalSlots = lateClaim ? (await getSystemConfiguration(ctx)).totalSlots : null;
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<WebhookOutcome> => {
    // An order found through the invoice's metadata (a crash before its invoice id was stored).
    if (order.invoice_id === null && invoice.expiresAt !== null) {
      await setOrderInvoice(trx, order.id, {
        invoiceId: invoice.id,
        checkoutLink: null,
        expiresAt: invoice.expiresAt,
      });
    }
    switch (reading.kind) {
      case 'paid': {
        // BTCPay says paid; whether that pays for this order is checked, never assumed.
        if (reading.verdict.status !== 'paid') {
          const verdict = reading.verdict;
          const held = await holdUnmatchedPayment(trx, order, invoice.id, verdict, source.via, now);
          return record(trx, held ? verdict.status : 'unchanged');
        }
        // Counted before this order is (it holds none now).
        const slots = totalSlots === null ? null : await countSlots(ctx, trx, totalSlots);
        if (!(await claimOrderPaid(trx, order.id, now))) return record(trx, 'already_paid');
        await issueOrderCode(trx, order, { invoiceId: invoice.id, via: source.via, mail: mailing(ctx) }, now);
        const shortfall = slots !== null && slots.totalSlots - slots.sold <= 0;
        await recordPaidDetails(trx, order.id, {
          paymentState: reading.over ? 'over' : reading.late ? 'late' : null,
          received: reading.over,
          slotShortfall: shortfall,
        });
        if (shortfall) {
          await insertAuditLog(
            trx,
            {
              eventType: 'order_paid_without_slot',
              success: false,
              details: {
                orderId: order.id,
                invoiceId: invoice.id,
                totalSlots: slots?.totalSlots,
                sold: slots?.sold,
              },
            },
            now,
          );
        }
        codeCreated = true;
        return record(trx, 'paid');
      }
      case 'ended': {
        if (reading.partial) {
          // The checkout closed on part of the price: the operator completes or refunds it.
          const verdict = { status: 'underpaid' as const, received: reading.partial };
          const held = await holdUnmatchedPayment(trx, order, invoice.id, verdict, source.via, now);
          return record(trx, held ? 'underpaid' : 'unchanged');
        }
        const status = reading.status;
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
      case 'processing':
        // Paid, waiting for confirmations: the buyer keeps the slot they paid for, and is not asked to pay again.
        await extendPendingOrder(trx, order.id, now + PROCESSING_HOLD_MS);
        await recordPendingPayment(trx, order.id, 'processing', null);
        return record(trx, 'unchanged');
      case 'open':
        if (reading.partial) await recordPendingPayment(trx, order.id, 'partial', reading.partial);
        return record(trx, 'unchanged');
    }
  });
  if (codeCreated) {
    await announceLicensingChanged(ctx, 'redemption_code');
    kickOrderMail(ctx, order.id);
  }
  return outcome;
}
