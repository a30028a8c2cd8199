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

/** Total slots when nothing is configured yet. */
export const DEFAULT_TOTAL_SLOTS = 30;
export const PREMIUM_PRICE_USD = 40;

export const SYSTEM_TEXTS = {
  totalSlotsMin: 'Total slots must be 0 or greater',
  walletEmpty: 'Wallet address cannot be empty',
} as const;

export const PaymentWalletsSchema = z.record(
  z
    .string()
    .trim()
    .min(1, 'Currency cannot be empty')
    .max(16)
    .transform((c) => c.toUpperCase()),
  z.string().trim().min(1, SYSTEM_TEXTS.walletEmpty).max(256),
);

export const SystemConfigurationSchema = z.object({
  totalSlots: z
    .number({ error: 'totalSlots must be a number' })
    .int('Total slots must be a whole number')
    .min(0, SYSTEM_TEXTS.totalSlotsMin)
    .max(1_000_000),
  paymentWallets: PaymentWalletsSchema,
});
export type SystemConfiguration = z.infer<typeof SystemConfigurationSchema>;

export interface SlotUsage {
  usedSlots: number;
  availableSlots: number;
  totalSlots: number;
  utilizationPercentage: number;
}

export interface PurchaseInfo {
  slots: { available: number; total: number; utilizationPercentage: number };
  paymentWallets: Record<string, string>;
}

/** Used slots are active, unexpired PREMIUM and VIP licenses; available never drops below 0. */
export function computeSlotUsage(totalSlots: number, usedSlots: number): SlotUsage {
  const availableSlots = Math.max(0, totalSlots - usedSlots);
  const utilizationPercentage =
    totalSlots > 0 ? Math.min(100, Math.round((usedSlots / totalSlots) * 100)) : 100;
  return { usedSlots, availableSlots, totalSlots, utilizationPercentage };
}
