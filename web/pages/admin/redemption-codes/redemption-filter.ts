import { REDEMPTION_KEY_TYPES, type RedemptionKey, redemptionStatus } from '../../../../common/redemption.ts';

/** The screen's filter: everything, by derived status, or by type. */
export const REDEMPTION_FILTERS = ['all', 'available', 'redeemed', ...REDEMPTION_KEY_TYPES] as const;
export type RedemptionFilter = (typeof REDEMPTION_FILTERS)[number];

export const REDEMPTION_FILTER_LABELS: Record<RedemptionFilter, string> = {
  all: 'All codes',
  available: 'Available',
  redeemed: 'Redeemed',
  FREE: 'FREE',
  PREMIUM: 'PREMIUM',
  VIP: 'VIP',
};

/**
 * The codes a search (case-insensitive contains over code and type) and a filter leave. 'available'
 * means what the Status column says: an expired code is not available even though nobody redeemed it.
 */
export function filterRedemptionCodes(
  codes: readonly RedemptionKey[],
  search: string,
  filter: RedemptionFilter,
  now: number = Date.now(),
): RedemptionKey[] {
  const needle = search.trim().toLowerCase();
  return codes.filter((code) => {
    if (
      needle &&
      !code.redemptionCode.toLowerCase().includes(needle) &&
      !code.keyType.toLowerCase().includes(needle)
    ) {
      return false;
    }
    switch (filter) {
      case 'all':
        return true;
      case 'available':
        return redemptionStatus(code, now) === 'Available';
      case 'redeemed':
        return code.isRedeemed === 1;
      default:
        return code.keyType === filter;
    }
  });
}
