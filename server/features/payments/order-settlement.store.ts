import type { Money, OrderPaymentState } from '../../../common/payments.ts';
import type { Db } from '../../db/index.ts';

/*
 * The order moves a settled invoice that does not match its price causes, and the operator's
 * resolution of one. Each is one conditional update, so only one of any concurrent twins wins.
 */

/** Statuses an order may be held from: those a payment can still arrive for (as claimOrderPaid). */
const HOLDABLE = ['pending', 'expired', 'invalid'] as const;
/** Statuses that wait for the operator. */
const HELD = ['underpaid', 'mismatch'] as const;

/** Holds the order as underpaid or mismatch with what was received; false when it was not open. */
export async function holdOrderUnmatched(
  trx: Db,
  id: string,
  status: 'underpaid' | 'mismatch',
  received: Money,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({
      status,
      received_amount: received.amount,
      received_currency: received.currency,
      // Held for the operator: no longer a partial payment the buyer can complete at the checkout.
      payment_state: null,
      ended_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', HOLDABLE)
    .where('redemption_key_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The operator's "Issue code anyway": a held order becomes paid (its code follows, setOrderCode). */
export async function claimHeldOrderPaid(trx: Db, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ status: 'paid', paid_at: now, ended_at: null })
    .where('id', '=', id)
    .where('status', 'in', HELD)
    .where('redemption_key_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The operator gave a held order's payment back: it ends without a code. */
export async function markHeldOrderRefunded(trx: Db, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ status: 'refunded', ended_at: now })
    .where('id', '=', id)
    .where('status', 'in', HELD)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * What a paid order's payment was beyond the price (late, over) and, for a late one, whether it found
 * no free slot. Runs in the claim's transaction.
 */
export async function recordPaidDetails(
  trx: Db,
  id: string,
  details: { paymentState: 'late' | 'over' | null; received: Money | null; slotShortfall: boolean },
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({
      payment_state: details.paymentState,
      slot_shortfall: details.slotShortfall ? 1 : 0,
      // What arrived is kept only when it was more than the price (a partial payment completed late is paid).
      received_amount: details.received?.amount ?? null,
      received_currency: details.received?.currency ?? null,
    })
    .where('id', '=', id)
    .execute();
}

/** A payment on a still-open order: confirming (processing) or part of the price (partial, with what arrived). */
export async function recordPendingPayment(
  trx: Db,
  id: string,
  state: Extract<OrderPaymentState, 'processing' | 'partial'>,
  received: Money | null,
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({
      payment_state: state,
      received_amount: received?.amount ?? null,
      received_currency: received?.currency ?? null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
