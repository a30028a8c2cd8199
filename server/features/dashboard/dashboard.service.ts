import type { DashboardStats } from '../../../common/dashboard.ts';
import { ORDER_PRICE } from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import { usageDay, usageWindowStart } from '../../db/usage-day.ts';
import { sumPaidOrders } from '../payments/orders-admin.store.ts';
import { getBtcpayConnection } from '../payments/payment-settings.service.ts';
import {
  countHardwareBindings,
  countLicenseKeysByStatus,
  countScriptKeysByStatus,
  sumUsageByWindow,
} from './dashboard.store.ts';

/**
 * Key, binding and usage totals for the admin dashboard. Keys are license keys and script keys
 * together: a switched-off script key counts as revoked. Weekly and monthly are the last 7 and 30 UTC days;
 * sales count paid orders over the same days (today from UTC midnight, the week from the first of its 7 days).
 */
export async function getDashboardStats(ctx: AppContext): Promise<DashboardStats> {
  const now = ctx.now();
  const [licenseKeys, scriptKeys, bindings, usage, sales, connection] = await Promise.all([
    countLicenseKeysByStatus(ctx.db, now),
    countScriptKeysByStatus(ctx.db, now),
    countHardwareBindings(ctx.db),
    sumUsageByWindow(ctx.db, {
      today: usageDay(now),
      weekStart: usageWindowStart(now, 7),
      monthStart: usageWindowStart(now, 30),
    }),
    sumPaidOrders(ctx.db, {
      todayStart: Date.parse(usageDay(now)),
      weekStart: Date.parse(usageWindowStart(now, 7)),
      currency: ORDER_PRICE.currency,
    }),
    getBtcpayConnection(ctx),
  ]);
  return {
    timestamp: new Date(now).toISOString(),
    stats: {
      totalKeys: licenseKeys.total + scriptKeys.total,
      activeKeys: licenseKeys.active + scriptKeys.active,
      expiredKeys: licenseKeys.expired + scriptKeys.expired,
      revokedKeys: licenseKeys.revoked + scriptKeys.inactive,
      totalBindings: bindings.total,
      activeBindings: bindings.active,
      todayUsage: usage.today,
      weeklyUsage: usage.week,
      monthlyUsage: usage.month,
    },
    sales: { ...sales, currency: ORDER_PRICE.currency, connected: connection !== null },
  };
}
