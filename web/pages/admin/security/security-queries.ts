import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { AuditLogListResponse, RateLimitStatusResponse } from '../../../../common/security.ts';
import { LICENSING_REFETCH_MS } from '../shared/polling.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const AUDIT_LOGS_URL = QUERY_KEYS.auditLogs;
export const RATE_LIMITS_URL = '/api/admin/security/rate-limits';

/** One page of the last 24 hours' audit log; `eventType` 'all' is left out of the URL. Polled every 30 s. */
export function auditLogsQuery(filters: { limit: number; eventType: string }) {
  return queryOptions({
    queryKey: [AUDIT_LOGS_URL, filters] as const,
    queryFn: () => {
      const params = new URLSearchParams({ limit: String(filters.limit), offset: '0' });
      if (filters.eventType !== 'all') params.set('eventType', filters.eventType);
      return getJson<AuditLogListResponse>(`${AUDIT_LOGS_URL}?${params}`, {
        failure: 'Failed to fetch security audit logs',
      });
    },
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** The limiter's live state; polled every 30 s. */
export function rateLimitsQuery() {
  return queryOptions({
    queryKey: [RATE_LIMITS_URL],
    queryFn: () =>
      getJson<RateLimitStatusResponse>(RATE_LIMITS_URL, { failure: 'Failed to fetch rate limit status' }),
    select: (data) => data.rateLimits,
    refetchInterval: LICENSING_REFETCH_MS,
  });
}
