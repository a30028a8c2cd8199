import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import {
  type BotConfiguration,
  CONFIGURATION_POLL_MS,
  type ConfigurationChange,
  type ConfigurationDashboard,
  type ConfigurationProfile,
  HISTORY_DEFAULT_LIMIT,
} from '../../../../common/configuration.ts';

/** Query keys are the URLs, like every screen's, so a change or a socket event invalidates by URL. */
export const CONFIGURATION_DASHBOARD_URL = '/api/admin/configurations/dashboard-stats';
export const CONFIGURATIONS_URL = '/api/admin/configurations';
export const CONFIGURATION_PROFILES_URL = '/api/admin/configuration-profiles';
export const CONFIGURATION_HISTORY_URL = '/api/admin/configurations/history';

/** Everything a push, a profile application, a rollback or an emergency toggle makes stale. */
export const LIVE_CONFIGURATION_URLS = [
  CONFIGURATION_DASHBOARD_URL,
  CONFIGURATIONS_URL,
  CONFIGURATION_PROFILES_URL,
  CONFIGURATION_HISTORY_URL,
] as const;

/** The spec's page-level failure, shown when the dashboard cannot be loaded. */
export const DASHBOARD_LOAD_FAILURE =
  'Failed to load configuration dashboard. Please try refreshing the page.';

/** Figures, fleet health, deployment outcomes and the emergency state; polled every 15 s. */
export function configurationDashboardQuery() {
  return queryOptions({
    queryKey: [CONFIGURATION_DASHBOARD_URL],
    queryFn: () =>
      getJson<ConfigurationDashboard>(CONFIGURATION_DASHBOARD_URL, { failure: DASHBOARD_LOAD_FAILURE }),
    refetchInterval: CONFIGURATION_POLL_MS.dashboard,
  });
}

/** One configuration per bot, in bot order; polled every 30 s. */
export function configurationsQuery() {
  return queryOptions({
    queryKey: [CONFIGURATIONS_URL],
    queryFn: () =>
      getJson<{ configurations: BotConfiguration[] }>(CONFIGURATIONS_URL, {
        failure: 'Failed to fetch bot configurations',
      }),
    select: (data) => data.configurations,
    refetchInterval: CONFIGURATION_POLL_MS.configurations,
  });
}

/** Built-in and saved profiles; polled every 60 s. */
export function configurationProfilesQuery() {
  return queryOptions({
    queryKey: [CONFIGURATION_PROFILES_URL],
    queryFn: () =>
      getJson<{ profiles: ConfigurationProfile[] }>(CONFIGURATION_PROFILES_URL, {
        failure: 'Failed to fetch configuration profiles',
      }),
    select: (data) => data.profiles,
    refetchInterval: CONFIGURATION_POLL_MS.profiles,
  });
}

/**
 * The newest change records with their per-bot outcomes. Polled with the dashboard (15 s): both
 * move when bots acknowledge, and the socket's progress events refresh them sooner.
 */
export function configurationHistoryQuery() {
  return queryOptions({
    queryKey: [CONFIGURATION_HISTORY_URL],
    queryFn: () =>
      getJson<{ changes: ConfigurationChange[] }>(
        `${CONFIGURATION_HISTORY_URL}?limit=${HISTORY_DEFAULT_LIMIT}`,
        { failure: 'Failed to fetch configuration history' },
      ),
    select: (data) => data.changes,
    refetchInterval: CONFIGURATION_POLL_MS.dashboard,
  });
}
