import { z } from 'zod';

/** Quick-add wallet currencies, in the order the screen shows them. */
export const QUICK_ADD_CURRENCIES = [
  'BTC',
  'ETH',
  'SOL',
  'USDT',
  'USDC',
  'BNB',
  'ADA',
  'DOT',
  'LTC',
  'MATIC',
] as const;

// Defined in a zod-free module so the public bundle can import them without the schemas.
export { DEFAULT_TOTAL_SLOTS, PREMIUM_PRICE_USD } from './public-defaults.ts';

export const SYSTEM_TEXTS = {
  totalSlotsMin: 'Total slots must be 0 or greater',
  walletEmpty: 'Wallet address cannot be empty',
  hwidResetsMin: 'Device resets per week must be 0 or greater',
  communityInviteUrl: 'communityInviteUrl must be an https:// link (or null to remove it)',
  /** The toast text of the `system_config_update` socket message. */
  configurationUpdated: 'Configuration has been updated',
} as const;

/** Currency code (upper-cased) -> wallet address. */
export const PaymentWalletsSchema = z.record(
  z
    .string()
    .trim()
    .min(1, 'Currency cannot be empty')
    .max(16)
    .transform((c) => c.toUpperCase()),
  z
    .string({ error: 'Wallet address must be text' })
    .trim()
    .min(1, SYSTEM_TEXTS.walletEmpty)
    .max(256, 'Wallet address must be at most 256 characters'),
  {
    // A bad key is reported as the record's own issue, so say here what a key must be.
    error: (issue) =>
      issue.code === 'invalid_key'
        ? 'Currency must be 1 to 16 characters'
        : 'paymentWallets must be an object of currency to wallet address',
  },
);

export const SystemConfigurationSchema = z.object(
  {
    totalSlots: z
      .number({ error: 'totalSlots must be a number' })
      .int('Total slots must be a whole number')
      .min(0, SYSTEM_TEXTS.totalSlotsMin)
      .max(1_000_000, 'Total slots must be at most 1000000'),
    paymentWallets: PaymentWalletsSchema,
    /** Device resets per script key over a rolling 7 days; absent on PUT keeps the stored value. */
    hwidResetsPerWeek: z
      .number({ error: 'hwidResetsPerWeek must be a number' })
      .int('hwidResetsPerWeek must be a whole number')
      .min(0, SYSTEM_TEXTS.hwidResetsMin)
      .max(100, 'hwidResetsPerWeek must be at most 100')
      .optional(),
    /** Where buyers open a ticket (an https link); null removes it; absent on PUT keeps the stored one. */
    communityInviteUrl: z
      .url({ protocol: /^https$/, error: SYSTEM_TEXTS.communityInviteUrl })
      .max(500, 'communityInviteUrl must be at most 500 characters')
      .nullable()
      .optional(),
  },
  { error: 'Request body must be a JSON object with totalSlots and paymentWallets' },
);
/** PUT's body (hwidResetsPerWeek optional). */
export type SystemConfiguration = z.infer<typeof SystemConfigurationSchema>;

/** The saved configuration as the admin reads it back (currencies already upper-cased). */
export const SystemConfigurationViewSchema = z
  .object({
    totalSlots: z.number().int(),
    /** Currency code -> wallet address. */
    paymentWallets: z.record(z.string(), z.string()),
    /** Device resets per script key over a rolling 7 days. */
    hwidResetsPerWeek: z.number().int(),
    /** Where buyers open a ticket; null: not set (the public pages say how to reach support instead). */
    communityInviteUrl: z.string().nullable(),
    /**
     * Saved wallets buyers are not shown, each with why (currency code -> reason): ones saved before
     * addresses were checked. Empty when every wallet is valid.
     */
    walletProblems: z.record(z.string(), z.string()),
  })
  .meta({ id: 'SystemConfiguration' });
/** The stored configuration: hwidResetsPerWeek always present (default HWID_RESETS_PER_WEEK, else 1). */
export type SystemConfigurationView = z.infer<typeof SystemConfigurationViewSchema>;

/**
 * A currency code as wallets are keyed: 2 to 10 capital letters or digits (BTC, USDT, 1INCH); no
 * spaces, symbols or emoji. Which codes exist is the server's check (the address library's list).
 */
export const CURRENCY_CODE_PATTERN = /^[A-Z0-9]{2,10}$/;

/** Why a currency code cannot key a wallet, in the operator's words; null when its form is fine. */
export function currencyCodeProblem(code: string): string | null {
  return CURRENCY_CODE_PATTERN.test(code)
    ? null
    : `${code || '(empty)'}: a currency code is 2 to 10 capital letters or digits, such as BTC`;
}

/** A save refused for its wallets answers 400 with `error` (every reason) and each one per currency. */
export interface WalletProblemsAnswer {
  error: string;
  /** Currency code -> reason, e.g. BTC -> 'BTC: this is not a Bitcoin address'. */
  walletProblems: Record<string, string>;
}

/** GET and PUT /api/admin/system-configuration. */
export const SystemConfigurationResponseSchema = z
  .object({ configuration: SystemConfigurationViewSchema })
  .meta({ id: 'SystemConfigurationResponse' });
export type SystemConfigurationResponse = z.infer<typeof SystemConfigurationResponseSchema>;

export const SlotUsageSchema = z
  .object({
    usedSlots: z.number().int(),
    availableSlots: z.number().int(),
    totalSlots: z.number().int(),
    utilizationPercentage: z.number(),
  })
  .meta({ id: 'SlotUsage' });
export type SlotUsage = z.infer<typeof SlotUsageSchema>;

/** GET /api/admin/system-configuration/slot-usage. */
export const SlotUsageResponseSchema = z
  .object({ slotUsage: SlotUsageSchema })
  .meta({ id: 'SlotUsageResponse' });
export type SlotUsageResponse = z.infer<typeof SlotUsageResponseSchema>;

/** Used slots are active, unexpired PREMIUM and VIP licenses; available never drops below 0. */
export function computeSlotUsage(totalSlots: number, usedSlots: number): SlotUsage {
  const availableSlots = Math.max(0, totalSlots - usedSlots);
  const utilizationPercentage =
    totalSlots > 0 ? Math.min(100, Math.round((usedSlots / totalSlots) * 100)) : 100;
  return { usedSlots, availableSlots, totalSlots, utilizationPercentage };
}
