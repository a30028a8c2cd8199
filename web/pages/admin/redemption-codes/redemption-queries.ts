import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { RedemptionKeyListResponse } from '../../../../common/redemption.ts';
import { LICENSING_REFETCH_MS } from '../shared/polling.ts';

export const REDEMPTION_KEYS_URL = '/api/admin/redemption-keys';

/** Every redemption code; the screen searches and filters them itself. Polled every 30 s. */
export function redemptionKeysQuery() {
  return queryOptions({
    queryKey: [REDEMPTION_KEYS_URL],
    queryFn: () =>
      getJson<RedemptionKeyListResponse>(REDEMPTION_KEYS_URL, { failure: 'Failed to fetch redemption keys' }),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}
