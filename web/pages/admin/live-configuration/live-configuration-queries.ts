import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import {
  type BotConfiguration,
  CONFIGURATION_POLL_MS,
  type ConfigurationChange,
  type ConfigurationProfile,
  HISTORY_DEFAULT_LIMIT,
} from '../../../../common/configuration.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

/** Query keys are the URLs, like every screen's, so a change or a socket event invalidates by URL. */
export const CONFIGURATION_DASHBOARD_URL = QUERY_KEYS.configurationDashboard;
export const CONFIGURATIONS_URL = QUERY_KEYS.configurations;
export const CONFIGURATION_PROFILES_URL = QUERY_KEYS.configurationProfiles;
export const CONFIGURATION_HISTORY_URL = QUERY_KEYS.configurationHistory;

// The emergency state in the dashboard is shown by Live Monitoring and the sidebar too.
export {
  configurationDashboardQuery,
  DASHBOARD_LOAD_FAILURE,
} from '../shared/queries.ts';
export { LIVE_CONFIGURATION_URLS } from '../shared/query-keys.ts';

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
