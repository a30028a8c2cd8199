import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { DashboardStats } from '../../common/dashboard.ts';
import type { HardwareBindingListResponse } from '../../common/hardware-bindings.ts';
import type { LicenseKey, LicenseKeyStatus } from '../../common/licensing.ts';
import type { RedemptionKeyListResponse } from '../../common/redemption.ts';
import type { ScriptKeyListResponse } from '../../common/script-keys.ts';
import {
  type AllScriptsListResponse,
  type ScriptListResponse,
  type ScriptResponse,
  type ScriptVersionsResponse,
  VERSION_HISTORY_SHOWN,
} from '../../common/scripts.ts';
import type { ScriptsPageConfig } from '../../common/scripts-page.ts';
import type { AuditLogListResponse, RateLimitStatusResponse } from '../../common/security.ts';
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
export const SCRIPTS_URL = '/api/admin/scripts';
export const ALL_SCRIPT_FILES_URL = '/api/admin/all-scripts/list';
export const HOSTED_SCRIPTS_URL = '/api/admin/hosted-scripts';
export const SCRIPTS_PAGE_CONFIG_URL = '/api/admin/scripts-page-config';
export const REDEMPTION_KEYS_URL = '/api/admin/redemption-keys';
export const SCRIPT_KEYS_URL = '/api/admin/script-keys/list';
export const HARDWARE_BINDINGS_URL = '/api/admin/hardware/bindings';
export const AUDIT_LOGS_URL = '/api/admin/security/audit-logs';
export const RATE_LIMITS_URL = '/api/admin/security/rate-limits';

/** Polling intervals from the specs. */
export const DASHBOARD_STATS_REFETCH_MS = 30_000;
export const SYSTEM_CONFIGURATION_REFETCH_MS = 30_000;
export const SLOT_USAGE_REFETCH_MS = 15_000;
export const LICENSE_KEYS_REFETCH_MS = 30_000;
/** Codes, script keys, bindings, audit logs and rate limits all poll every 30 s. */
export const LICENSING_REFETCH_MS = 30_000;

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

/** Every script (name, access type, size, version); the management screen's picker. */
export function scriptsQuery() {
  return queryOptions({
    queryKey: [SCRIPTS_URL],
    queryFn: async () => {
      try {
        return await apiRequest<ScriptListResponse>('GET', SCRIPTS_URL);
      } catch (cause) {
        throw new Error('Failed to fetch scripts', { cause });
      }
    },
    select: (data) => data.scripts,
  });
}

/** One script with its current content. */
export function scriptQuery(filename: string) {
  const url = `${SCRIPTS_URL}/${encodeURIComponent(filename)}`;
  return queryOptions({
    queryKey: [SCRIPTS_URL, filename],
    queryFn: async () => {
      try {
        return await apiRequest<ScriptResponse>('GET', url);
      } catch (cause) {
        throw new Error('Failed to fetch script content', { cause });
      }
    },
    select: (data) => data.script,
  });
}

/** The versions the history shows (the newest VERSION_HISTORY_SHOWN), newest first. */
export function scriptVersionsQuery(filename: string) {
  const url = `${SCRIPTS_URL}/${encodeURIComponent(filename)}/versions?limit=${VERSION_HISTORY_SHOWN}`;
  return queryOptions({
    queryKey: [SCRIPTS_URL, filename, 'versions'],
    queryFn: async () => {
      try {
        return await apiRequest<ScriptVersionsResponse>('GET', url);
      } catch (cause) {
        throw new Error('Failed to fetch script versions', { cause });
      }
    },
    select: (data) => data.versions,
  });
}

/** Every script file, shipped and hosted: the file manager's table. */
export function allScriptFilesQuery() {
  return queryOptions({
    queryKey: [ALL_SCRIPT_FILES_URL],
    queryFn: () => apiRequest<AllScriptsListResponse>('GET', ALL_SCRIPT_FILES_URL),
  });
}

/** The public scripts page's content as the editor loads it. */
export function scriptsPageConfigQuery() {
  return queryOptions({
    queryKey: [SCRIPTS_PAGE_CONFIG_URL],
    queryFn: () => apiRequest<{ config: ScriptsPageConfig }>('GET', SCRIPTS_PAGE_CONFIG_URL),
    select: (data) => data.config,
  });
}

/** After any change to the script store: the picker, open scripts, versions and the file table. */
export async function refreshScriptStore(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [SCRIPTS_URL, ALL_SCRIPT_FILES_URL].map((url) => queryClient.invalidateQueries({ queryKey: [url] })),
  );
}

/** A GET whose failure carries the spec's fetch-error text (the server's answer stays as the cause). */
async function fetchOrFail<T>(url: string, failure: string, headers?: Record<string, string>): Promise<T> {
  try {
    return await apiRequest<T>('GET', url, undefined, headers);
  } catch (cause) {
    throw new Error(failure, { cause });
  }
}

/** Every redemption code; the screen searches and filters them itself. Polled every 30 s. */
export function redemptionKeysQuery() {
  return queryOptions({
    queryKey: [REDEMPTION_KEYS_URL],
    queryFn: () =>
      fetchOrFail<RedemptionKeyListResponse>(REDEMPTION_KEYS_URL, 'Failed to fetch redemption keys'),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** Every script key; polled every 30 s. */
export function scriptKeysQuery() {
  return queryOptions({
    queryKey: [SCRIPT_KEYS_URL],
    queryFn: () => fetchOrFail<ScriptKeyListResponse>(SCRIPT_KEYS_URL, 'Failed to fetch script keys'),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** Every hardware binding; polled every 30 s. */
export function hardwareBindingsQuery() {
  return queryOptions({
    queryKey: [HARDWARE_BINDINGS_URL],
    queryFn: () =>
      fetchOrFail<HardwareBindingListResponse>(HARDWARE_BINDINGS_URL, 'Failed to fetch hardware bindings'),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** One page of the last 24 hours' audit log; `eventType` 'all' is left out of the URL. Polled every 30 s. */
export function auditLogsQuery(filters: { limit: number; eventType: string }) {
  return queryOptions({
    queryKey: [AUDIT_LOGS_URL, filters] as const,
    queryFn: () => {
      const params = new URLSearchParams({ limit: String(filters.limit), offset: '0' });
      if (filters.eventType !== 'all') params.set('eventType', filters.eventType);
      return fetchOrFail<AuditLogListResponse>(
        `${AUDIT_LOGS_URL}?${params}`,
        'Failed to fetch security audit logs',
      );
    },
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** The limiter's live state; polled every 30 s. */
export function rateLimitsQuery() {
  return queryOptions({
    queryKey: [RATE_LIMITS_URL],
    queryFn: () => fetchOrFail<RateLimitStatusResponse>(RATE_LIMITS_URL, 'Failed to fetch rate limit status'),
    select: (data) => data.rateLimits,
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** After a code, key or binding changes: every licensing list, the audit log (it gained a row), the dashboard and slot figures. */
export async function refreshLicensing(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [
      REDEMPTION_KEYS_URL,
      SCRIPT_KEYS_URL,
      HARDWARE_BINDINGS_URL,
      AUDIT_LOGS_URL,
      DASHBOARD_STATS_URL,
      SLOT_USAGE_URL,
    ].map((url) => queryClient.invalidateQueries({ queryKey: [url] })),
  );
}
