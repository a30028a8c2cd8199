import type { QueryClient } from '@tanstack/react-query';
import { QUERY_KEYS } from './query-keys.ts';

/** Invalidates every query whose key starts with one of these URLs (filtered variants included). */
export async function invalidateUrls(queryClient: QueryClient, urls: readonly string[]): Promise<void> {
  await Promise.all(urls.map((url) => queryClient.invalidateQueries({ queryKey: [url] })));
}

/**
 * What a code, key or binding change makes stale: every licensing list, the audit log (it gained a
 * row), the dashboard and slot figures.
 */
export const LICENSING_URLS = [
  QUERY_KEYS.redemptionKeys,
  QUERY_KEYS.scriptKeys,
  QUERY_KEYS.scriptKeySharing,
  QUERY_KEYS.hardwareBindings,
  QUERY_KEYS.auditLogs,
  QUERY_KEYS.dashboardStats,
  QUERY_KEYS.slotUsage,
] as const;

export const refreshLicensing = (queryClient: QueryClient) => invalidateUrls(queryClient, LICENSING_URLS);

/** After any change to the script store: the picker, open scripts, versions and the file table. */
export const refreshScriptStore = (queryClient: QueryClient) =>
  invalidateUrls(queryClient, [QUERY_KEYS.scripts, QUERY_KEYS.allScriptFiles]);
