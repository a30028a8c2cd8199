import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { LicenseKey, LicenseKeyStatus } from '../../../../common/licensing.ts';

export const LICENSE_KEYS_URL = '/api/admin/license-keys';
export const LICENSE_KEYS_REFETCH_MS = 30_000;

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
      return getJson<LicenseKeyList>(`${LICENSE_KEYS_URL}?${params}`);
    },
    refetchInterval: LICENSE_KEYS_REFETCH_MS,
  });
}
