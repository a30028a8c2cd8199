import type { PurchaseInfo } from '../../../common/public-api.ts';
import { PREMIUM_PRICE_USD } from '../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import { computeSlotUsage } from '../../../common/system.ts';
import type { AppContext } from '../../context.ts';
import { getEffectivePaymentSettings } from '../payments/payment-settings.service.ts';
import { getScriptsPageConfig } from '../scripts/scripts.service.ts';
import { countSlots, getSystemConfiguration, publishableWallets } from '../system/system.service.ts';

/**
 * What a visitor needs to buy: what one purchase gives, free slots out of the total, and where to
 * pay; while pending orders hold slots, how many and when the first frees (the page says so rather
 * than Sold Out). With no free slot there is nowhere to pay: no wallets, and when one may free. Also
 * the network's state for the landing page's LIVE badge (the word only: no bot ids, no times).
 */
export async function getPurchaseInfo(ctx: AppContext): Promise<PurchaseInfo> {
  const [slots, configuration, payment, fleet] = await Promise.all([
    countSlots(ctx),
    getSystemConfiguration(ctx),
    getEffectivePaymentSettings(ctx),
    ctx.services.fleetCondition(),
  ]);
  const connection = payment.connection;
  const usage = computeSlotUsage(slots.totalSlots, slots.totalSlots - slots.available);
  const full = usage.availableSlots <= 0;
  const ends = [slots.freeAgainAt, slots.firstSoldEndsAt].filter((t) => t !== null);
  return {
    slots: {
      available: usage.availableSlots,
      total: usage.totalSlots,
      utilizationPercentage: usage.utilizationPercentage,
    },
    paymentWallets: full ? {} : publishableWallets(configuration),
    offer: {
      priceUsd: PREMIUM_PRICE_USD,
      validityHours: payment.delivery.validityHours,
      maxDevices: payment.delivery.maxHardwareBindings,
    },
    nextFreeAt: full && ends.length > 0 ? new Date(Math.min(...ends)).toISOString() : null,
    communityInviteUrl: configuration.communityInviteUrl,
    // Absent, not false, without a connection: the answer stays exactly the spec's.
    ...(connection ? { payNow: true as const } : {}),
    ...(slots.held > 0 && slots.freeAgainAt !== null
      ? { reserved: { slots: slots.held, freeAgainAt: new Date(slots.freeAgainAt).toISOString() } }
      : {}),
    fleet: { state: fleet.state },
  };
}

/** The content of the public /scripts page. */
export async function getPublicScriptsPageConfig(ctx: AppContext): Promise<ScriptsPageConfig> {
  return getScriptsPageConfig(ctx);
}
