import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { HardwareBindingListResponse } from '../../../../common/hardware-bindings.ts';
import { LICENSING_REFETCH_MS } from '../shared/polling.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const HARDWARE_BINDINGS_URL = QUERY_KEYS.hardwareBindings;

/** Every hardware binding; polled every 30 s. */
export function hardwareBindingsQuery() {
  return queryOptions({
    queryKey: [HARDWARE_BINDINGS_URL],
    queryFn: () =>
      getJson<HardwareBindingListResponse>(HARDWARE_BINDINGS_URL, {
        failure: 'Failed to fetch hardware bindings',
      }),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}
