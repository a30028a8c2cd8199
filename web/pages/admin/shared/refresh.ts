import type { QueryClient } from '@tanstack/react-query';
import { DASHBOARD_STATS_URL } from '../dashboard/dashboard-queries.ts';
import { ALL_SCRIPT_FILES_URL } from '../file-manager/file-queries.ts';
import { HARDWARE_BINDINGS_URL } from '../hardware-bindings/hardware-binding-queries.ts';
import { REDEMPTION_KEYS_URL } from '../redemption-codes/redemption-queries.ts';
import { SCRIPT_KEYS_URL } from '../script-keys/script-key-queries.ts';
import { SCRIPTS_URL } from '../script-management/script-queries.ts';
import { AUDIT_LOGS_URL } from '../security/security-queries.ts';
import { SLOT_USAGE_URL } from '../system-configuration/system-configuration-queries.ts';

/** Invalidates every query whose key starts with one of these URLs (filtered variants included). */
export async function invalidateUrls(queryClient: QueryClient, urls: readonly string[]): Promise<void> {
  await Promise.all(urls.map((url) => queryClient.invalidateQueries({ queryKey: [url] })));
}

/**
 * What a code, key or binding change makes stale: every licensing list, the audit log (it gained a
 * row), the dashboard and slot figures.
 */
export const LICENSING_URLS = [
  REDEMPTION_KEYS_URL,
  SCRIPT_KEYS_URL,
  HARDWARE_BINDINGS_URL,
  AUDIT_LOGS_URL,
  DASHBOARD_STATS_URL,
  SLOT_USAGE_URL,
] as const;

export const refreshLicensing = (queryClient: QueryClient) => invalidateUrls(queryClient, LICENSING_URLS);

/** After any change to the script store: the picker, open scripts, versions and the file table. */
export const refreshScriptStore = (queryClient: QueryClient) =>
  invalidateUrls(queryClient, [SCRIPTS_URL, ALL_SCRIPT_FILES_URL]);
