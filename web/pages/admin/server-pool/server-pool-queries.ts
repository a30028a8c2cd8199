import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { ServerPoolStatsResponse } from '../../../../common/server-pool.ts';

/** The query key is the URL, like every screen's, so it can be invalidated by URL. */
export const SERVER_POOL_STATS_URL = '/api/server-pool/stats';

/** The spec's polling interval for the pool's figures. */
export const SERVER_POOL_STATS_REFETCH_MS = 5_000;

/** The pool's figures, quarantined servers and flagged bots; polled every 5 s. */
export function serverPoolStatsQuery() {
  return queryOptions({
    queryKey: [SERVER_POOL_STATS_URL],
    queryFn: () =>
      getJson<ServerPoolStatsResponse>(SERVER_POOL_STATS_URL, {
        failure: 'Failed to fetch server pool stats',
      }),
    refetchInterval: SERVER_POOL_STATS_REFETCH_MS,
  });
}
