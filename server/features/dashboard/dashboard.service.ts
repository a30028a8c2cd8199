import type { DashboardStats } from '../../../common/dashboard.ts';
import type { AppContext } from '../../context.ts';
import { usageDay, usageWindowStart } from '../../db/usage-day.ts';
import {
  countHardwareBindings,
  countLicenseKeysByStatus,
  countScriptKeysByStatus,
  sumUsageByWindow,
} from './dashboard.store.ts';

/**
 * Key, binding and usage totals for the admin dashboard. Keys are license keys and script keys
 * together: a switched-off script key counts as revoked. Weekly and monthly are the last 7 and 30 UTC days.
 */
export async function getDashboardStats(ctx: AppContext): Promise<DashboardStats> {
  const now = ctx.now();
  const [licenseKeys, scriptKeys, bindings, usage] = await Promise.all([
    countLicenseKeysByStatus(ctx.db, now),
    countScriptKeysByStatus(ctx.db, now),
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
  };
}
