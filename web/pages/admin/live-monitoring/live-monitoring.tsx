import { useQuery } from '@tanstack/react-query';
import { Activity, Download, Pause, Play, RefreshCw, Search, WifiOff, Zap } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useRealtime } from '@/lib/realtime.tsx';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { adminSessionQuery } from '../shared/admin-session.ts';
import { EmergencyBanner } from '../shared/emergency-banner.tsx';
import { FleetConditionBanner, useFleetCondition } from '../shared/fleet-condition.tsx';
import { StatCard } from '../shared/stat-card.tsx';
import { useEmergencyState } from '../shared/use-emergency-state.ts';
import { type FleetFeed, NO_FIGURE } from './fleet-feed.ts';
import { LiveActivityTab } from './live-activity-tab.tsx';
import { downloadJson, exportFileName, monitoringExport } from './monitoring-export.ts';
import { PerformanceTab } from './performance-tab.tsx';
import { type DiscoveryFilter, filterDiscoveries, PetDiscoveriesTab } from './pet-discoveries-tab.tsx';
import { ScannerStatusTab } from './scanner-status-tab.tsx';
import { useFleetFeed, useMonitoringPoll } from './use-fleet-feed.ts';

export const CONNECTION_LOST_TEXT =
  'WebSocket connection lost. Real-time data may not be current. The dashboard will automatically reconnect.';

/** /admin/live-monitoring: the fleet in real time from the admin socket. */
export default function LiveMonitoringPage() {
  const { status } = useRealtime();
  const connected = status === 'connected';
  const [autoRefresh, setAutoRefresh] = useState(true);
  useMonitoringPoll(autoRefresh);
  const feed = useFleetFeed(autoRefresh);
  const emergency = useEmergencyState({ poll: true });
  const stopped = emergency?.stopped ?? false;
  const fleet = useFleetCondition();
  const serverUnreachable = useServerUnreachable();
  // The lists re-render in the background, interruptible: under 1,400 events/s the header, tabs and
  // controls answer at once while the Live Activity lists catch up a frame or so later.
  const lists = useDeferredValue(feed);
  const [discoveryFilter, setDiscoveryFilter] = useState<DiscoveryFilter>({ search: '', value: 'all' });
  const discoveries = useMemo(
    () => filterDiscoveries(feed.discoveries, discoveryFilter),
    [feed.discoveries, discoveryFilter],
  );

  const exportData = () =>
    downloadJson(
      monitoringExport({
        networkStats: feed.networkStats,
        scanners: feed.scanners,
        petDiscoveries: discoveries,
        liveEvents: feed.liveEvents,
      }),
      exportFileName(),
    );

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Live Monitoring Dashboard"
        description="Real-time view of the scanner network: bots, server hops and pet discoveries"
      >
        <div className="flex flex-wrap gap-2">
          <Button
            variant={autoRefresh ? 'default' : 'outline'}
            aria-pressed={autoRefresh}
            onClick={() => setAutoRefresh((on) => !on)}
          >
            <RefreshCw className={autoRefresh && connected ? 'animate-spin [animation-duration:3s]' : ''} />
            Auto Refresh {autoRefresh ? 'ON' : 'OFF'}
          </Button>
          <Button variant="outline" onClick={exportData}>
            <Download />
            Export Data
          </Button>
          <PauseButton feed={feed} />
          {feed.held && <HeldNotice pendingEvents={feed.pendingEvents} />}
        </div>
      </AdminPageHeader>

      {/* The shell already says when the whole server is unreachable: one banner, not two. */}
      {(status === 'disconnected' || status === 'error') && !serverUnreachable && (
        <Alert variant="destructive" className="border-red-600 bg-red-600/10">
          <WifiOff className="h-4 w-4" />
          <AlertDescription>{CONNECTION_LOST_TEXT}</AlertDescription>
        </Alert>
      )}
      {emergency && <EmergencyBanner emergency={emergency} />}
      <FleetConditionBanner view={fleet} />

      <FleetStatCards feed={feed} stopped={stopped} />

      <Tabs defaultValue="activity">
        <TabsList className="h-auto flex-wrap">
          <TabsTrigger value="activity">Live Activity</TabsTrigger>
          <TabsTrigger value="scanners">Scanner Status</TabsTrigger>
          <TabsTrigger value="discoveries">Pet Discoveries</TabsTrigger>
          <TabsTrigger value="performance">Performance</TabsTrigger>
        </TabsList>
        <TabsContent value="activity">
          <LiveActivityTab
            hops={lists.hops}
            events={lists.liveEvents}
            hopStats={lists.hopStats}
            totals={lists.totals}
            stopped={stopped}
          />
        </TabsContent>
        <TabsContent value="scanners">
          <ScannerStatusTab scanners={feed.scanners} />
        </TabsContent>
        <TabsContent value="discoveries">
          <PetDiscoveriesTab
            discoveries={discoveries}
            filter={discoveryFilter}
            onFilterChange={setDiscoveryFilter}
          />
        </TabsContent>
        <TabsContent value="performance">
          <PerformanceTab
            networkStats={feed.networkStats}
            discoveries={feed.discoveries}
            connected={connected}
            lastUpdate={feed.lastUpdate}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * The shell's session check got no answer: it shows its own outage banner. Read without fetching
 * (the shell runs the check); false outside the shell.
 */
function useServerUnreachable(): boolean {
  return useQuery({ ...adminSessionQuery(), enabled: false }).isError;
}

/** Says that Auto Refresh OFF holds the view still, and how much it is not showing. */
function HeldNotice({ pendingEvents }: { pendingEvents: number }) {
  return (
    <p role="status" className="basis-full text-sm text-amber-300">
      Updates paused while Auto Refresh is OFF
      {pendingEvents > 0 &&
        ` · ${pendingEvents.toLocaleString('en-US')} new ${pendingEvents === 1 ? 'event' : 'events'} not shown`}
    </p>
  );
}

/**
 * The header's fourth control: freezes the lists so a row can be read under 1,400 events/s, while
 * the count of what arrived meanwhile keeps growing; resuming shows them all.
 */
function PauseButton({ feed }: { feed: FleetFeed }) {
  if (!feed.paused) {
    return (
      <Button variant="outline" onClick={() => feed.setPaused(true)}>
        <Pause />
        Pause Feed
      </Button>
    );
  }
  return (
    <Button variant="secondary" onClick={() => feed.setPaused(false)}>
      <Play />
      Resume ({feed.pendingEvents.toLocaleString('en-US')} new events)
    </Button>
  );
}

/** The four network cards; placeholders until the first figures arrive. */
function FleetStatCards({ feed, stopped }: { feed: FleetFeed; stopped: boolean }) {
  const stats = feed.networkStats;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Active Bots"
        value={stats?.activeBots ?? NO_FIGURE}
        icon={Activity}
        hint={`of ${stats?.totalBots ?? NO_FIGURE} total bots`}
      />
      <Card role="group" aria-label="Network Health">
        <CardHeader className="flex-row items-center justify-between gap-2 p-4 pb-2 sm:p-6 sm:pb-2">
          <CardTitle className="text-sm font-medium text-muted-foreground">Network Health</CardTitle>
          <Zap className="h-4 w-4 text-muted-foreground" />
        </CardHeader>
        <CardContent className="flex flex-col gap-2 p-4 pt-0 sm:p-6 sm:pt-0">
          <div className="text-2xl font-bold tabular-nums sm:text-3xl">
            {stats ? `${stats.networkHealth}%` : NO_FIGURE}
          </div>
          {stats && <Progress value={stats.networkHealth} aria-label="Network health" className="h-2" />}
          {stopped && <p className="text-xs font-medium text-red-400">Stopped by an emergency stop</p>}
        </CardContent>
      </Card>
      <StatCard
        title="Scans/Min"
        value={stats ? Math.round(stats.totalScansPerMinute) : NO_FIGURE}
        icon={Search}
        hint="Across active scanners"
      />
      <StatCard
        title="Pets Found"
        value={stats?.totalPetsFound ?? NO_FIGURE}
        icon={Zap}
        hint="Total discoveries today"
      />
    </div>
  );
}
