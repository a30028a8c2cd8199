import { type Selectable, sql } from 'kysely';
import { maskEmail } from '../../../common/order-texts.ts';
import type { AdminOrder, OrderStatus, WebhookDelivery, WebhookOutcome } from '../../../common/payments.ts';
import { maskRedemptionCode } from '../../../common/redemption.ts';
import { countWhere } from '../../db/aggregates.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { OrdersTable, PaymentWebhookDeliveriesTable } from './payments.table.ts';

/*
 * What the operator reads of the orders: the Orders screen's list with each order's webhook
 * deliveries, and the dashboard's sales.
 */

export type OrderRow = Selectable<OrdersTable>;
export type WebhookDeliveryRow = Selectable<PaymentWebhookDeliveriesTable>;

export interface OrderFilter {
  status?: OrderStatus;
  /** Case-insensitive contains over the order id, the invoice id and the code. */
  search?: string;
  limit: number;
}

/** `text` as a LIKE pattern matching it anywhere, lower-cased, with the LIKE wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The order's id, invoice id or code contains `search`, whatever the case. */
function matchesSearch(search: string) {
  const pattern = containsPattern(search);
  // lower() on both sides because LIKE is case-sensitive on PostgreSQL and (for ASCII) not on SQLite.
  return sql<boolean>`(lower(id) like ${pattern} escape '\\' or lower(coalesce(invoice_id, '')) like ${pattern} escape '\\' or lower(coalesce(redemption_code, '')) like ${pattern} escape '\\')`;
}

/** Newest first, at most `limit`. */
export async function listOrderRows(db: Db, filter: OrderFilter): Promise<OrderRow[]> {
  let query = db.selectFrom('orders').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.search) query = query.where(matchesSearch(filter.search));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** How many orders the filter matches, beyond the listed limit too. */
export async function countOrderRows(db: Db, filter: Omit<OrderFilter, 'limit'>): Promise<number> {
  let query = db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.search) query = query.where(matchesSearch(filter.search));
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The webhook deliveries of these orders in one query, newest first. */
export async function listDeliveryRowsOfOrders(db: Db, orderIds: string[]): Promise<WebhookDeliveryRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('payment_webhook_deliveries')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function deliveryRowToWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: Number(row.id),
    deliveryId: row.delivery_id,
    originalDeliveryId: row.original_delivery_id,
    isRedelivery: Number(row.is_redelivery) === 1 ? 1 : 0,
    type: row.event_type,
    outcome: row.outcome as WebhookOutcome,
    receivedAt: new Date(Number(row.received_at)).toISOString(),
  };
}

/** An order as the admin reads it: its code masked as Redemption Codes shows codes. */
export function orderRowToAdminOrder(row: OrderRow, deliveries: WebhookDelivery[]): AdminOrder {
  return {
    id: row.id,
    status: row.status,
    invoiceId: row.invoice_id,
    amount: row.amount,
    currency: row.currency,
    keyType: row.key_type,
    validityHours: Number(row.validity_hours),
    maxHardwareBindings: Number(row.max_hardware_bindings),
    redemptionCode: row.redemption_code === null ? null : maskRedemptionCode(row.redemption_code),
    redemptionKeyId: row.redemption_key_id === null ? null : Number(row.redemption_key_id),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
    paidAt: isoOrNull(row.paid_at === null ? null : Number(row.paid_at)),
    endedAt: isoOrNull(row.ended_at === null ? null : Number(row.ended_at)),
    received:
      row.received_amount === null || row.received_currency === null
        ? null
        : { amount: row.received_amount, currency: row.received_currency },
    deliveries,
    paymentState: row.payment_state ?? null,
    slotShortfall: Number(row.slot_shortfall ?? 0) === 1,
    email: row.buyer_email ? maskEmail(row.buyer_email) : null,
    mail: row.mail_state
      ? {
          state: row.mail_state,
          attempts: Number(row.mail_attempts ?? 0),
          error: row.mail_error ?? null,
          sentAt: isoOrNull(
            row.mail_sent_at === null || row.mail_sent_at === undefined ? null : Number(row.mail_sent_at),
          ),
        }
      : null,
  };
}

export interface PaidOrderTotals {
  orders: number;
  /** The amounts added up (decimal text in the table; a sale is a whole number of USD). */
  amount: number;
}

/**
 * Paid orders in `currency` since `todayStart` and since `weekStart` (paid_at, epoch ms), in one
 * pass over the paid_at index.
 */
export async function sumPaidOrders(
  db: Db,
  windows: { todayStart: number; weekStart: number; currency: string },
): Promise<{ today: PaidOrderTotals; week: PaidOrderTotals }> {
  const since = Math.min(windows.todayStart, windows.weekStart);
  // The amount is decimal text: cast to a number that both dialects sum without rounding cents.
  const amount = sql<number>`cast(amount as decimal(18, 2))`;
  const row = await db
    .selectFrom('orders')
    .where('status', '=', 'paid')
    .where('currency', '=', windows.currency)
    .where('paid_at', '>=', since)
    .select((eb) => [
      countWhere(eb('paid_at', '>=', windows.todayStart)).as('today_orders'),
      sql<number>`coalesce(sum(case when paid_at >= ${windows.todayStart} then ${amount} else 0 end), 0)`.as(
        'today_amount',
      ),
      countWhere(eb('paid_at', '>=', windows.weekStart)).as('week_orders'),
      sql<number>`coalesce(sum(case when paid_at >= ${windows.weekStart} then ${amount} else 0 end), 0)`.as(
        'week_amount',
      ),
    ])
    .executeTakeFirstOrThrow();
  return {
    today: { orders: Number(row.today_orders), amount: Number(row.today_amount) },
    week: { orders: Number(row.week_orders), amount: Number(row.week_amount) },
  };
}
