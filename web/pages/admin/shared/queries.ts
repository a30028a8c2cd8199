import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import { CONFIGURATION_POLL_MS, type ConfigurationDashboard } from '../../../../common/configuration.ts';
import type { LicenseKey, LicenseKeyStatus } from '../../../../common/licensing.ts';
import type { PaymentSettingsResponse } from '../../../../common/payments.ts';
import type { RedemptionKeyListResponse } from '../../../../common/redemption.ts';
import type { AllScriptsListResponse } from '../../../../common/scripts.ts';
import { LICENSING_REFETCH_MS } from './polling.ts';
import { QUERY_KEYS } from './query-keys.ts';

/*
 * The queries more than one screen reads: each screen shows the same answer (and shares its cache
 * entry) without importing another screen's code.
 */

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
    queryKey: [QUERY_KEYS.licenseKeys, { search, status: filters.status }] as const,
    queryFn: () => {
      const params = new URLSearchParams({ status: filters.status });
      if (search) params.set('search', search);
      return getJson<LicenseKeyList>(`${QUERY_KEYS.licenseKeys}?${params}`);
    },
    refetchInterval: LICENSE_KEYS_REFETCH_MS,
  });
}

/** Every redemption code; the screen searches and filters them itself. Polled every 30 s. */
export function redemptionKeysQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.redemptionKeys],
    queryFn: () =>
      getJson<RedemptionKeyListResponse>(QUERY_KEYS.redemptionKeys, {
        failure: 'Failed to fetch redemption keys',
      }),
    refetchInterval: LICENSING_REFETCH_MS,
  });
}

/** Every script file, shipped and hosted: the file manager's table. */
export function allScriptFilesQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.allScriptFiles],
    queryFn: () => getJson<AllScriptsListResponse>(QUERY_KEYS.allScriptFiles),
  });
}

/** The spec's page-level failure, shown when the dashboard cannot be loaded. */
export const DASHBOARD_LOAD_FAILURE =
  'Failed to load configuration dashboard. Please try refreshing the page.';

/** Figures, fleet health, deployment outcomes and the emergency state; polled every 15 s. */
export function configurationDashboardQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.configurationDashboard],
    queryFn: () =>
      getJson<ConfigurationDashboard>(QUERY_KEYS.configurationDashboard, { failure: DASHBOARD_LOAD_FAILURE }),
    refetchInterval: CONFIGURATION_POLL_MS.dashboard,
  });
}

/** How often the payment settings are read again (an environment change shows after a restart). */
export const PAYMENT_SETTINGS_REFETCH_MS = 30_000;

/**
 * The BTCPay connection settings (the key and secret masked) and what an order delivers: System
 * Configuration edits them, Orders reads whether payments are connected. Polled every 30 s.
 */
export function paymentSettingsQuery() {
  return queryOptions({
    queryKey: [QUERY_KEYS.paymentSettings],
    queryFn: () =>
      getJson<PaymentSettingsResponse>(QUERY_KEYS.paymentSettings, {
        failure: 'Failed to load the payment settings',
      }),
    select: (data) => data.settings,
    refetchInterval: PAYMENT_SETTINGS_REFETCH_MS,
  });
}
