import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { DashboardStats } from '../../../../common/dashboard.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

/**
 * Query keys are the URL (the default query function GETs the key joined with '/'), so a mutation
 * or a socket event can invalidate a screen by its URL.
 */
export const DASHBOARD_STATS_URL = QUERY_KEYS.dashboardStats;

/** The spec's polling interval for the dashboard's figures. */
export const DASHBOARD_STATS_REFETCH_MS = 30_000;

/** The dashboard's figures; polled every 30 s. */
export function dashboardStatsQuery() {
  return queryOptions({
    queryKey: [DASHBOARD_STATS_URL],
    queryFn: () =>
      getJson<DashboardStats>(DASHBOARD_STATS_URL, { failure: 'Failed to fetch dashboard stats' }),
    refetchInterval: DASHBOARD_STATS_REFETCH_MS,
  });
}
