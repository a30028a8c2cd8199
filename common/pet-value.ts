/** Spec section 5: the multipliers of a value text's suffix. */
const SUFFIX_MULTIPLIERS: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/**
 * A pet's value text as a number, by spec section 5: currency symbols, commas and spaces are
 * removed; a K/M/B/T suffix multiplies; a non-numeric value is 0; an empty value counts as '$0'.
 * Bots often report a rate ('$12.5M/s'), so a trailing '/s' is ignored.
 *
 *     parsePetValue('$1,250,000') === 1_250_000; parsePetValue('$12.5M/s') === 12_500_000
 */
export function parsePetValue(text: string | null | undefined): number {
  const cleaned = (text ?? '')
    .replace(/\/\s*s(ec)?\s*$/i, '')
    .replace(/[\s,$€£¥₿]/g, '')
    .toUpperCase();
  if (cleaned === '') return 0;
  const suffix = cleaned.at(-1) ?? '';
  const multiplier = SUFFIX_MULTIPLIERS[suffix];
  const digits = multiplier === undefined ? cleaned : cleaned.slice(0, -1);
  if (!/^\d*\.?\d+$|^\d+\.$/.test(digits)) return 0;
  const value = Number(digits) * (multiplier ?? 1);
  return Number.isFinite(value) ? value : 0;
}

/** Spec section 9: the value thresholds of the filters and badges. */
export const PET_VALUE_THRESHOLDS = { high: 500_000, million: 1_000_000, premium: 5_000_000 } as const;

/**
 * What the discovery feed holds back from FREE users (DESIGN, "Discovery feed"): finds at 10M/s
 * and up entirely, and the join data (job id) of finds at 5M/s and up.
 */
export const FEED_TIER_LIMITS = { freeMaxValue: 10_000_000, freeJoinDataBelow: 5_000_000 } as const;
