import { queryOptions } from '@tanstack/react-query';
import type { SlotUsage, SystemConfiguration } from '../../../../common/system.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const SYSTEM_CONFIGURATION_URL = QUERY_KEYS.systemConfiguration;
export const SLOT_USAGE_URL = QUERY_KEYS.slotUsage;

/** Polling intervals from the spec. */
export const SYSTEM_CONFIGURATION_REFETCH_MS = 30_000;
export const SLOT_USAGE_REFETCH_MS = 15_000;

/** The saved configuration; walletProblems: saved wallets buyers are not shown, with why. */
export type SavedSystemConfiguration = SystemConfiguration & { walletProblems?: Record<string, string> };

/** Slot capacity and wallets; polled every 30 s. */
export function systemConfigurationQuery() {
  return queryOptions({
    queryKey: [SYSTEM_CONFIGURATION_URL],
    select: (data: { configuration: SavedSystemConfiguration }) => data.configuration,
    refetchInterval: SYSTEM_CONFIGURATION_REFETCH_MS,
  });
}

/** Used and available premium slots; polled every 15 s. */
export function slotUsageQuery() {
  return queryOptions({
    queryKey: [SLOT_USAGE_URL],
    select: (data: { slotUsage: SlotUsage }) => data.slotUsage,
    refetchInterval: SLOT_USAGE_REFETCH_MS,
  });
}
