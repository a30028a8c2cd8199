import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useRealtime } from '@/lib/realtime.tsx';
import type { ConfigurationChange } from '../../../../common/configuration.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { EmergencyBanner } from '../shared/emergency-banner.tsx';
import { errorText } from '../shared/error-text.ts';
import type { ListState } from '../shared/list-state.tsx';
import { ConnectionBadge } from '../shared/realtime-status.tsx';
import { EmergencyToggle } from './emergency-control.tsx';
import { HistoryTab } from './history-tab.tsx';
import {
  configurationDashboardQuery,
  configurationHistoryQuery,
  configurationProfilesQuery,
  configurationsQuery,
  DASHBOARD_LOAD_FAILURE,
} from './live-configuration-queries.ts';
import { OverviewTab } from './overview-tab.tsx';
import { UnsavedParametersGuard } from './parameter-controls.tsx';
import { ParametersTab, useParameterForm } from './parameters-tab.tsx';
import { ProfilesTab } from './profiles-tab.tsx';
import { pushTrackerOf } from './push-tracker.ts';

/** A push of parameter values (not an emergency stop or resume). */
const isParameterChange = (change: ConfigurationChange) =>
  change.kind !== 'emergency_stop' && change.kind !== 'emergency_resume';

/** A query's list as the tabs take it. */
function listState<T>(query: { data?: readonly T[]; error: unknown }): ListState<T> {
  return { data: query.data, error: query.error ? errorText(query.error) : null };
}

/**
 * /admin/configuration: the bot network's live configuration (spec 2.8). The header shows the
 * admin socket's state and the emergency toggle; the tabs show the figures, the parameters form,
 * the profiles and the history of changes. Polled (15 s, 30 s, 60 s) and refreshed by socket events.
 */
export default function LiveConfigurationPage() {
  const { status } = useRealtime();
  const dashboard = useQuery(configurationDashboardQuery());
  const configurations = useQuery(configurationsQuery());
  const profiles = useQuery(configurationProfilesQuery());
  const history = useQuery(configurationHistoryQuery());
  // The bots ticked on the Parameters tab; the Profiles tab applies to the same ones.
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const selectedConfigurations = useMemo(
    () => (configurations.data ?? []).filter((c) => selected.has(c.botId)),
    [configurations.data, selected],
  );
  const targetBotIds = useMemo(() => selectedConfigurations.map((c) => c.botId), [selectedConfigurations]);
  const parameters = useParameterForm(selectedConfigurations);
  const pushTracker = pushTrackerOf(useQueryClient());
  // The change records settle this tab's push toasts too, should a progress event be missed.
  useEffect(() => {
    pushTracker.records(history.data ?? []);
  }, [history.data, pushTracker]);

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Live Configuration"
        description="Tune the scanner bots, apply profiles, and stop the whole network in an emergency."
      >
        <div className="flex flex-wrap items-center gap-2">
          <ConnectionBadge status={status} />
          {dashboard.data && <EmergencyToggle emergency={dashboard.data.emergency} />}
        </div>
      </AdminPageHeader>

      {dashboard.error && !dashboard.data ? (
        <Alert variant="destructive">
          <AlertTitle>Configuration unavailable</AlertTitle>
          <AlertDescription>{DASHBOARD_LOAD_FAILURE}</AlertDescription>
        </Alert>
      ) : !dashboard.data ? (
        <div className="grid grid-cols-2 gap-4 xl:grid-cols-4" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : (
        <>
          <EmergencyBanner emergency={dashboard.data.emergency} />
          <Tabs defaultValue="overview">
            <TabsList className="h-auto flex-wrap">
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="parameters">Parameters</TabsTrigger>
              <TabsTrigger value="profiles">Profiles</TabsTrigger>
              <TabsTrigger value="history">History</TabsTrigger>
            </TabsList>
            <TabsContent value="overview">
              <OverviewTab dashboard={dashboard.data} />
            </TabsContent>
            <TabsContent value="parameters">
              <ParametersTab
                configurations={listState(configurations)}
                targetBotIds={targetBotIds}
                selected={selected}
                onSelectedChange={setSelected}
                parameters={parameters}
                latestPush={history.data?.find(isParameterChange)}
              />
            </TabsContent>
            <TabsContent value="profiles">
              <ProfilesTab
                profiles={listState(profiles)}
                ranking={dashboard.data.dashboardStats.topUsedProfiles}
                targetBotIds={targetBotIds}
              />
            </TabsContent>
            <TabsContent value="history">
              <HistoryTab changes={listState(history)} />
            </TabsContent>
          </Tabs>
          <UnsavedParametersGuard parameters={parameters} />
        </>
      )}
    </div>
  );
}
