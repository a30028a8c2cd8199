import type { Insertable, Selectable } from 'kysely';
import type { WebhookOutcome } from '../../../common/payments.ts';
import type { Db, DialectName } from '../../db/index.ts';
import type { OrdersTable, PaymentWebhookDeliveriesTable } from './payments.table.ts';

export type OrderRow = Selectable<OrdersTable>;

/** Bigint columns come back as text from PostgreSQL: numbers inside. */
export function orderOf(row: OrderRow): OrderRow {
  const orNull = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...row,
    validity_hours: Number(row.validity_hours),
    max_hardware_bindings: Number(row.max_hardware_bindings),
    redemption_key_id: orNull(row.redemption_key_id),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
    invoice_expires_at: orNull(row.invoice_expires_at),
    checkout_opened_at: orNull(row.checkout_opened_at),
    paid_at: orNull(row.paid_at),
    ended_at: orNull(row.ended_at),
    checked_at: orNull(row.checked_at),
    slot_shortfall: orNull(row.slot_shortfall ?? null),
    mail_attempts: orNull(row.mail_attempts ?? null),
    mail_next_at: orNull(row.mail_next_at ?? null),
    mail_claimed_until: orNull(row.mail_claimed_until ?? null),
    mail_sent_at: orNull(row.mail_sent_at ?? null),
  };
}

/**
 * Serializes the decisions that hand out slots (a new order): on PostgreSQL the one configuration
 * row is locked until the transaction ends; SQLite runs one write transaction at a time anyway.
 */
export async function lockSlots(trx: Db, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await trx.selectFrom('system_configuration').select('id').where('id', '=', 1).forUpdate().execute();
}

export async function insertOrder(trx: Db, order: Insertable<OrdersTable>): Promise<void> {
  await trx.insertInto('orders').values(order).execute();
}

export async function findOrderById(db: Db, id: string): Promise<OrderRow | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  return row && orderOf(row);
}

export async function findOrderByInvoiceId(db: Db, invoiceId: string): Promise<OrderRow | undefined> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  return row && orderOf(row);
}

/** The order from this client network (see limitedClient) whose hold still runs, if any. */
export async function findHoldingOrderOfNetwork(
  db: Db,
  network: string,
  now: number,
): Promise<OrderRow | undefined> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('client_network', '=', network)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .executeTakeFirst();
  return row && orderOf(row);
}

/**
 * Records the invoice BTCPay created for a new order (never over another invoice). Its hold stays
 * short: it grows to the invoice's expiry only when the buyer opens the checkout (holdOrderForCheckout).
 */
export async function recordOrderInvoice(
  db: Db,
  id: string,
  invoice: { invoiceId: string; checkoutLink: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('orders')
    .set({
      invoice_id: invoice.invoiceId,
      checkout_link: invoice.checkoutLink,
      invoice_expires_at: invoice.expiresAt,
    })
    .where('id', '=', id)
    .where('invoice_id', 'is', null)
    .execute();
}

/**
 * The buyer opened the order's checkout: a pending order whose short hold still runs holds its slot
 * until its invoice expires. False when it no longer held one, or already held it that long.
 */
export async function holdOrderForCheckout(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set((eb) => ({
      expires_at: eb.ref('invoice_expires_at').$castTo<number>(),
      checkout_opened_at: eb.fn.coalesce('checkout_opened_at', eb.val(now)),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .where('invoice_expires_at', 'is not', null)
    .where((eb) => eb('invoice_expires_at', '>', eb.ref('expires_at')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records the order's invoice when the reconciler or a webhook found it through its metadata (a
 * crash before its invoice id was stored; never over another invoice): a pending order then holds
 * its slot until the invoice expires.
 */
export async function setOrderInvoice(
  db: Db,
  id: string,
  invoice: { invoiceId: string; checkoutLink: string | null; expiresAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set((eb) => ({
      invoice_id: invoice.invoiceId,
      checkout_link: eb.fn.coalesce('checkout_link', eb.val(invoice.checkoutLink)),
      invoice_expires_at: invoice.expiresAt,
      // Only a pending order's hold follows its invoice's expiry.
      expires_at: eb
        .case()
        .when('status', '=', 'pending')
        .then(invoice.expiresAt)
        .else(eb.ref('expires_at'))
        .end(),
    }))
    .where('id', '=', id)
    .where('invoice_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends a pending order (expired or invalid), which frees its slot; false when it was not pending. */
export async function endPendingOrder(
  db: Db,
  id: string,
  status: 'expired' | 'invalid',
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status, ended_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends a pending order whose hold ran out; false when it was not pending or still holds. */
export async function expireOrderIfDue(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'expired', ended_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Claims the order for payment: the one conditional update that lets exactly one of any number of
 * webhooks, redeliveries and reconciler rounds go on to create its code. A late payment of an ended
 * order is still a sale. On PostgreSQL a concurrent twin waits for this row's lock and then finds
 * it paid.
 */
export async function claimOrderPaid(trx: Db, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ status: 'paid', paid_at: now, ended_at: null })
    .where('id', '=', id)
    // underpaid: the checkout closed on part of the price and the rest came late (Expired + PaidLate).
    .where('status', 'in', ['pending', 'expired', 'invalid', 'underpaid'])
    .where('redemption_key_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Names the code a claimed order produced (redemption_key_id is unique: never two orders, never two codes). */
export async function setOrderCode(
  trx: Db,
  id: string,
  code: { redemptionKeyId: number; redemptionCode: string },
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ redemption_key_id: code.redemptionKeyId, redemption_code: code.redemptionCode })
    .where('id', '=', id)
    .where('redemption_key_id', 'is', null)
    .execute();
}

/** Keeps a pending order's slot until at least `until` (a paid invoice waiting for confirmations). */
/**
 * Holds a paid-but-unconfirmed order's slot until `until`. An order that ended only because its hold
 * ran out (its invoice was being paid all along) is pending again.
 */
export async function extendPendingOrder(db: Db, id: string, until: number): Promise<void> {
  await db
    .updateTable('orders')
    .set({ status: 'pending', ended_at: null, expires_at: until })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'expired'])
    .where('expires_at', '<', until)
    .execute();
}

export async function markOrderChecked(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('orders').set({ checked_at: now }).where('id', '=', id).execute();
}

export interface NewWebhookDelivery {
  deliveryId: string;
  originalDeliveryId: string | null;
  isRedelivery: boolean;
  eventType: string;
  invoiceId: string | null;
  orderId: string | null;
  outcome: WebhookOutcome;
}

export async function insertWebhookDelivery(
  trx: Db,
  delivery: NewWebhookDelivery,
  now: number,
): Promise<void> {
  const row: Insertable<PaymentWebhookDeliveriesTable> = {
    delivery_id: delivery.deliveryId,
    original_delivery_id: delivery.originalDeliveryId,
    is_redelivery: delivery.isRedelivery ? 1 : 0,
    event_type: delivery.eventType,
    invoice_id: delivery.invoiceId,
    order_id: delivery.orderId,
    outcome: delivery.outcome,
    received_at: now,
  };
  await trx.insertInto('payment_webhook_deliveries').values(row).execute();
}

/** Whether the order's code was redeemed (its key is what the buyer holds now). */
export async function isOrderCodeRedeemed(db: Db, order: OrderRow): Promise<boolean> {
  if (order.redemption_key_id === null) return false;
  const row = await db
    .selectFrom('redemption_keys')
    .select('is_redeemed')
    .where('id', '=', order.redemption_key_id)
    .executeTakeFirst();
  return Number(row?.is_redeemed ?? 0) === 1;
}
