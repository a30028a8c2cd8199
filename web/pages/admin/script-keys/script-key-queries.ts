import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { KeySharingResponse, ScriptKeyListResponse } from '../../../../common/script-keys.ts';
import { LICENSING_REFETCH_MS } from '../shared/polling.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const SCRIPT_KEYS_URL = QUERY_KEYS.scriptKeys;

/** Every script key; polled every 30 s. */
export function scriptKeysQuery() {
  return queryOptions({
    queryKey: [SCRIPT_KEYS_URL],
    queryFn: () =>
      getJson<ScriptKeyListResponse>(SCRIPT_KEYS_URL, { failure: 'Failed to fetch script keys' }),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** Keys used from more addresses or networks than the thresholds allow; polled with the list. */
export function keySharingQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.scriptKeySharing],
    queryFn: () =>
      getJson<KeySharingResponse>(QUERY_KEYS.scriptKeySharing, { failure: 'Failed to fetch key sharing' }),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}
