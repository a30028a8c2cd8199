import {
  type OrderListResponse,
  type OrderStatus,
  PAYMENT_SETTING_FIELDS,
  type PaymentConnection,
  type PaymentSettings,
  type UpdatePaymentSettings,
  type WebhookDelivery,
} from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { checkBtcpayStore } from './btcpay-client.ts';
import {
  countOrderRows,
  deliveryRowToWebhookDelivery,
  listDeliveryRowsOfOrders,
  listOrderRows,
  orderRowToAdminOrder,
} from './orders-admin.store.ts';
import { getEffectivePaymentSettings, updatePaymentSettings } from './payment-settings.service.ts';

/** Who asked, for the audit log. */
export interface Caller {
  ip: string;
}

/**
 * Applies the admin's change and audits which settings it changed: names only, never the key's or
 * the secret's value.
 */
export async function changePaymentSettings(
  ctx: AppContext,
  change: UpdatePaymentSettings,
  caller: Caller,
): Promise<PaymentSettings> {
  const before = await getEffectivePaymentSettings(ctx);
  const settings = await updatePaymentSettings(ctx, change);
  const after = await getEffectivePaymentSettings(ctx);
  const changed: string[] = PAYMENT_SETTING_FIELDS.filter(
    (field) => before.values[field] !== after.values[field],
  );
  for (const key of ['keyType', 'validityHours', 'maxHardwareBindings'] as const) {
    if (before.delivery[key] !== after.delivery[key]) changed.push(`delivery.${key}`);
  }
  const cleared = PAYMENT_SETTING_FIELDS.filter(
    (field) => change[field] === null && before.values[field] !== null,
  );
  await insertAuditLog(
    ctx.db,
    {
      eventType: 'payment_settings_updated',
      success: true,
      ipAddress: caller.ip,
      details: { changed, cleared, connected: settings.connected },
    },
    ctx.now(),
  );
  return settings;
}

/** Whether BTCPay Server answers for the store with the settings in effect. */
export async function checkPaymentConnection(ctx: AppContext): Promise<PaymentConnection> {
  const { connection } = await getEffectivePaymentSettings(ctx);
  const checkedAt = () => new Date(ctx.now()).toISOString();
  if (!connection) {
    return {
      configured: false,
      reachable: false,
      storeName: null,
      error: 'Payments are not connected: set the BTCPay URL, store ID, API key and webhook secret',
      checkedAt: checkedAt(),
    };
  }
  const check = await checkBtcpayStore(connection);
  return { configured: true, ...check, checkedAt: checkedAt() };
}

export interface OrderListFilter {
  status: OrderStatus | 'all';
  search?: string;
  limit: number;
}

/** Newest first, each with its webhook deliveries (read for all listed orders in one query). */
export async function listOrders(ctx: AppContext, query: OrderListFilter): Promise<OrderListResponse> {
  const filter = {
    status: query.status === 'all' ? undefined : query.status,
    search: query.search || undefined,
  };
  const [rows, count] = await Promise.all([
    listOrderRows(ctx.db, { ...filter, limit: query.limit }),
    countOrderRows(ctx.db, filter),
  ]);
  const deliveries = new Map<string, WebhookDelivery[]>();
  for (const row of await listDeliveryRowsOfOrders(
    ctx.db,
    rows.map((order) => order.id),
  )) {
    if (row.order_id === null) continue;
    const list = deliveries.get(row.order_id) ?? [];
    list.push(deliveryRowToWebhookDelivery(row));
    deliveries.set(row.order_id, list);
  }
  return {
    orders: rows.map((row) => orderRowToAdminOrder(row, deliveries.get(row.id) ?? [])),
    count,
    timestamp: new Date(ctx.now()).toISOString(),
  };
}
