import { queryOptions } from '@tanstack/react-query';
import type { DashboardStats } from '../../common/dashboard.ts';
import type { LicenseKey, LicenseKeyStatus } from '../../common/licensing.ts';
import type { SlotUsage, SystemConfiguration } from '../../common/system.ts';
import { apiRequest } from './api.ts';

/**
 * Every admin query in one place: its key, how it is fetched and how often it polls.
 * Keys are the URL (the default query function GETs the key joined with '/'), so a mutation can
 * invalidate a screen by its URL prefix.
 */

export const DASHBOARD_STATS_URL = '/api/admin/dashboard/stats';
export const SYSTEM_CONFIGURATION_URL = '/api/admin/system-configuration';
export const SLOT_USAGE_URL = '/api/admin/system-configuration/slot-usage';
export const LICENSE_KEYS_URL = '/api/admin/license-keys';

/** Polling intervals from the specs. */
export const DASHBOARD_STATS_REFETCH_MS = 30_000;
export const SYSTEM_CONFIGURATION_REFETCH_MS = 30_000;
export const SLOT_USAGE_REFETCH_MS = 15_000;
export const LICENSE_KEYS_REFETCH_MS = 30_000;

/** The dashboard's figures; polled every 30 s. */
export function dashboardStatsQuery() {
  return queryOptions({
    queryKey: [DASHBOARD_STATS_URL],
    queryFn: async () => {
      try {
        return await apiRequest<DashboardStats>('GET', DASHBOARD_STATS_URL);
      } catch (cause) {
        throw new Error('Failed to fetch dashboard stats', { cause });
      }
    },
    refetchInterval: DASHBOARD_STATS_REFETCH_MS,
  });
}

/** Slot capacity and wallets; polled every 30 s. */
export function systemConfigurationQuery() {
  return queryOptions({
    queryKey: [SYSTEM_CONFIGURATION_URL],
    select: (data: { configuration: SystemConfiguration }) => data.configuration,
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

export type LicenseKeyStatusFilter = LicenseKeyStatus | 'all';

export interface LicenseKeyList {
  licenseKeys: LicenseKey[];
  count: number;
  timestamp: string;
}

/** License keys matching a search and a status filter; polled every 30 s. */
export function licenseKeysQuery(filters: { search: string; status: LicenseKeyStatusFilter }) {
  const search = filters.search.trim();
  return queryOptions({
    // The filters ride in the key as an object, so this query builds its URL itself.
    queryKey: [LICENSE_KEYS_URL, { search, status: filters.status }] as const,
    queryFn: () => {
      const params = new URLSearchParams({ status: filters.status });
      if (search) params.set('search', search);
      return apiRequest<LicenseKeyList>('GET', `${LICENSE_KEYS_URL}?${params}`);
    },
    refetchInterval: LICENSE_KEYS_REFETCH_MS,
  });
}
