import type { DashboardStats } from '../../../common/dashboard.ts';
import type { AppContext } from '../../context.ts';
import { usageDay, usageWindowStart } from '../licensing/usage-day.ts';
import { countHardwareBindings, countLicenseKeysByStatus, sumUsageByWindow } from './dashboard.store.ts';

/** Key, binding and usage totals for the admin dashboard. Weekly and monthly are the last 7 and 30 UTC days. */
export async function getDashboardStats(ctx: AppContext): Promise<DashboardStats> {
  const now = ctx.now();
  const [keys, bindings, usage] = await Promise.all([
    countLicenseKeysByStatus(ctx.db, now),
    countHardwareBindings(ctx.db),
    sumUsageByWindow(ctx.db, {
      today: usageDay(now),
      weekStart: usageWindowStart(now, 7),
      monthStart: usageWindowStart(now, 30),
    }),
  ]);
  return {
    timestamp: new Date(now).toISOString(),
    stats: {
      totalKeys: keys.total,
      activeKeys: keys.active,
      expiredKeys: keys.expired,
      revokedKeys: keys.revoked,
      totalBindings: bindings.total,
      activeBindings: bindings.active,
      todayUsage: usage.today,
      weeklyUsage: usage.week,
      monthlyUsage: usage.month,
    },
  };
}
