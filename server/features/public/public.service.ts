import type { PurchaseInfo } from '../../../common/public-api.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import { computeSlotUsage } from '../../../common/system.ts';
import type { AppContext } from '../../context.ts';
import { getBtcpayConnection } from '../payments/payment-settings.service.ts';
import { getScriptsPageConfig } from '../scripts/scripts.service.ts';
import { countSlots, getSystemConfiguration } from '../system/system.service.ts';

/**
 * What a visitor needs to buy: free slots out of the total, and where to pay; while pending orders
 * hold slots, how many and when the first frees (the page says so rather than Sold Out).
 */
export async function getPurchaseInfo(ctx: AppContext): Promise<PurchaseInfo> {
  const [slots, configuration, connection] = await Promise.all([
    countSlots(ctx),
    getSystemConfiguration(ctx),
    getBtcpayConnection(ctx),
  ]);
  const usage = computeSlotUsage(slots.totalSlots, slots.totalSlots - slots.available);
  return {
    slots: {
      available: usage.availableSlots,
      total: usage.totalSlots,
      utilizationPercentage: usage.utilizationPercentage,
    },
    paymentWallets: configuration.paymentWallets,
    // Absent, not false, without a connection: the answer stays exactly the spec's.
    ...(connection ? { payNow: true as const } : {}),
    ...(slots.held > 0 && slots.freeAgainAt !== null
      ? { reserved: { slots: slots.held, freeAgainAt: new Date(slots.freeAgainAt).toISOString() } }
      : {}),
  };
}

/** The content of the public /scripts page. */
export async function getPublicScriptsPageConfig(ctx: AppContext): Promise<ScriptsPageConfig> {
  return getScriptsPageConfig(ctx);
}
