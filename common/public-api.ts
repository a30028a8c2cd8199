import { z } from 'zod';
import { FLEET_STATES } from './fleet-condition.ts';
import { ScriptsPageConfigSchema } from './scripts-page.ts';

/*
 * The public site's two calls (no session), as they answer. Kept apart from public-defaults.ts,
 * which the landing page's bundle imports and must stay free of zod.
 */

/** GET /api/public/purchase-info: free slots out of the total, and where to pay. */
export const PurchaseInfoSchema = z.object({
  slots: z.object({ available: z.number(), total: z.number(), utilizationPercentage: z.number() }),
  /**
   * Currency code → wallet address: only addresses that passed the check for their currency, and
   * none while no slot is free (nobody should pay for a slot that is not there).
   */
  paymentWallets: z.record(z.string(), z.string()),
  /** What one purchase gives, from the payment delivery settings: stated before paying. */
  offer: z.object({
    priceUsd: z.number(),
    /** Hours the key stays valid once redeemed. */
    validityHours: z.number().int(),
    /** Devices (PCs) the key runs on at once. */
    maxDevices: z.number().int(),
  }),
  /** With no free slot: the soonest a held slot ends (an order's hold or a key's expiry), if known. */
  nextFreeAt: z.string().nullable(),
  /** Where buyers open a ticket (System Configuration); null when the operator set none. */
  communityInviteUrl: z.string().nullable(),
  /** Present (true) only when BTCPay Server is connected: the page offers Pay now. */
  payNow: z.literal(true).optional(),
  /**
   * Present only while pending orders hold slots: how many they keep from the next buyer, and when
   * the first hold runs out. With `available` 0 the page says so instead of Sold Out.
   */
  reserved: z.object({ slots: z.number().int(), freeAgainAt: z.string() }).optional(),
  /**
   * The scanner network's state (common/fleet-condition.ts) for the landing page's LIVE badge: the
   * state word only; which bots and when stay with the operator.
   */
  fleet: z.object({ state: z.enum(FLEET_STATES) }),
});
export type PurchaseInfo = z.infer<typeof PurchaseInfoSchema>;

/** GET /api/public/scripts-page-config: the content of the public /scripts page. */
export const PublicScriptsPageConfigResponseSchema = z.object({ config: ScriptsPageConfigSchema });
