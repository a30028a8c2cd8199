import type { PurchaseInfo } from '../../../common/public-api.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import type { AppContext } from '../../context.ts';
import { getBtcpayConnection } from '../payments/payment-settings.service.ts';
import { getScriptsPageConfig } from '../scripts/scripts.service.ts';
import { getSlotUsage, getSystemConfiguration } from '../system/system.service.ts';

/** What a visitor needs to buy: free slots out of the total, and where to pay. */
export async function getPurchaseInfo(ctx: AppContext): Promise<PurchaseInfo> {
  const [slotUsage, configuration, connection] = await Promise.all([
    getSlotUsage(ctx),
    getSystemConfiguration(ctx),
    getBtcpayConnection(ctx),
  ]);
  return {
    slots: {
      available: slotUsage.availableSlots,
      total: slotUsage.totalSlots,
      utilizationPercentage: slotUsage.utilizationPercentage,
    },
    paymentWallets: configuration.paymentWallets,
    // Absent, not false, without a connection: the answer stays exactly the spec's.
    ...(connection ? { payNow: true as const } : {}),
  };
}

/** The content of the public /scripts page. */
export async function getPublicScriptsPageConfig(ctx: AppContext): Promise<ScriptsPageConfig> {
  return getScriptsPageConfig(ctx);
}
