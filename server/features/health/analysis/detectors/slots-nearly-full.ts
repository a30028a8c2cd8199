import type { SlotUsage } from '../../../../../common/system.ts';
import type { AppContext } from '../../../../context.ts';
import { getSlotUsage } from '../../../system/system.service.ts';
import type { AnalysisWindow, FindingCandidate } from './detector.ts';

/**
 * slots_nearly_full: the premium slots in use (as the public pages count them) at or above
 * SLOTS.nearlyFullPercent of the total; ERROR once none is left. A state, not events: it counts
 * once each time usage climbs back up to the threshold.
 */
export const SLOTS = { nearlyFullPercent: 90 } as const;

export function slotsFinding(usage: SlotUsage, seenAt: number): FindingCandidate | null {
  if (usage.utilizationPercentage < SLOTS.nearlyFullPercent) return null;
  const full = usage.availableSlots === 0;
  return {
    analysisType: 'slots_nearly_full',
    subject: 'slots',
    severity: full ? 'ERROR' : 'WARNING',
    title: full
      ? `No premium slots left: ${usage.usedSlots}/${usage.totalSlots} used`
      : `Premium slots nearly full: ${usage.usedSlots}/${usage.totalSlots} used`,
    description: `${usage.usedSlots} of ${usage.totalSlots} slots are in use (${usage.utilizationPercentage}%), ${usage.availableSlots} left for new buyers.`,
    suggestedAction: 'Raise Total slots on System Configuration if the fleet can serve more users.',
    occurrences: 1,
    lastSeenAt: seenAt,
    isState: true,
    evidence: { kind: 'slots_nearly_full', ...usage },
  };
}

export async function detectSlotsNearlyFull(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const finding = slotsFinding(await getSlotUsage(ctx), window.to);
  return finding ? [finding] : [];
}
