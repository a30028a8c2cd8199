/** Spec section 5: the multipliers of a value text's suffix. */
const SUFFIX_MULTIPLIERS: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/**
 * A pet's value text as a number, by spec section 5: currency symbols, commas and spaces are
 * removed; a K/M/B/T suffix multiplies; an empty value counts as '$0'. Bots often report a rate
 * ('$12.5M/s'), so a trailing '/s' is ignored. Null when the text is not a value at all
 * ('priceless', '$3Qa/s', '$1.2.3M'): callers that decide who may see a find must not take that
 * for a small value (see FEED_TIER_LIMITS).
 *
 *     readPetValue('$12.5M/s') === 12_500_000; readPetValue('') === 0; readPetValue('$3Qa/s') === null
 */
export function readPetValue(text: string | null | undefined): number | null {
  if ((text ?? '').trim() === '') return 0;
  const cleaned = (text ?? '')
    .replace(/\/\s*s(ec)?\s*$/i, '')
    .replace(/[\s,$€£¥₿]/g, '')
    .toUpperCase();
  const suffix = cleaned.at(-1) ?? '';
  const multiplier = SUFFIX_MULTIPLIERS[suffix];
  const digits = multiplier === undefined ? cleaned : cleaned.slice(0, -1);
  if (!/^\d*\.?\d+$|^\d+\.$/.test(digits)) return null;
  const value = Number(digits) * (multiplier ?? 1);
  return Number.isFinite(value) ? value : null;
}

/**
 * A pet's value text as a number for display, sorting and filters, by spec section 5: as
 * readPetValue, and a non-numeric value is 0.
 *
 *     parsePetValue('$1,250,000') === 1_250_000; parsePetValue('priceless') === 0
 */
export function parsePetValue(text: string | null | undefined): number {
  return readPetValue(text) ?? 0;
}

/** Spec section 9: the value thresholds of the filters and badges. */
export const PET_VALUE_THRESHOLDS = { high: 500_000, million: 1_000_000, premium: 5_000_000 } as const;

/**
 * What the discovery feed holds back from FREE users (DESIGN, "Discovery feed"): finds at 10M/s
 * and up entirely, and the join data (job id) of finds at 5M/s and up. A find whose value text does
 * not parse (readPetValue is null) is held back entirely too: the tiers fail closed.
 */
export const FEED_TIER_LIMITS = { freeMaxValue: 10_000_000, freeJoinDataBelow: 5_000_000 } as const;

/**
 * How much of a find the FREE feed tier gets, from its value text: everything below 5M/s, no join
 * data from 5M/s, nothing from 10M/s, and nothing when the value does not parse (it could be
 * worth anything: the tiers fail closed).
 */
export function freeTierShare(valueText: string): 'all' | 'withoutJoinData' | 'none' {
  const value = readPetValue(valueText);
  if (value === null || value >= FEED_TIER_LIMITS.freeMaxValue) return 'none';
  if (value >= FEED_TIER_LIMITS.freeJoinDataBelow) return 'withoutJoinData';
  return 'all';
}
