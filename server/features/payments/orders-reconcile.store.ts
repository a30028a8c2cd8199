import type { Db } from '../../db/index.ts';
import { type OrderRow, orderOf } from './orders.store.ts';

/*
 * What the reconciler (payments-reconciler.ts) reads again: orders whose invoice may have changed
 * without a webhook telling, and orders that never got an invoice.
 */

/** How long after its invoice expired an expired order is still read again (a payment may arrive late). */
export const LATE_PAYMENT_WATCH_MS = 24 * 60 * 60_000;
/** How often such an order is read again. */
export const LATE_PAYMENT_RECHECK_MS = 10 * 60_000;

/**
 * What the reconciler reads again, the longest unchecked first: pending orders with an invoice;
 * orders that expired by time alone (their hold ran out and BTCPay has not been read since), whose
 * invoice may still be Processing or Settled; and, every LATE_PAYMENT_RECHECK_MS for a day after
 * their invoice expired, expired orders, whose invoice BTCPay may still mark PaidLate (a late
 * payment's webhook that never came).
 */
export async function listOrdersToReconcile(db: Db, now: number, limit: number): Promise<OrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('invoice_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([
          eb('status', '=', 'expired'),
          eb.or([
            eb('checked_at', 'is', null),
            eb('checked_at', '<', eb.ref('ended_at')),
            eb.and([
              eb('checked_at', '<=', now - LATE_PAYMENT_RECHECK_MS),
              eb('invoice_expires_at', '>', now - LATE_PAYMENT_WATCH_MS),
            ]),
          ]),
        ]),
      ]),
    )
    .orderBy((eb) => eb.fn.coalesce('checked_at', eb.val(0)))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(orderOf);
}

/** Pending orders past their hold that never got an invoice id (BTCPay failed, or a crash in between). */
export async function listDueUninvoicedOrders(db: Db, now: number, limit: number): Promise<OrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('status', '=', 'pending')
    .where('invoice_id', 'is', null)
    .where('expires_at', '<=', now)
    .limit(limit)
    .execute();
  return rows.map(orderOf);
}
