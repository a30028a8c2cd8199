import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { NetworkStats, PetDiscovery } from '../../../../common/fleet.ts';
import { NO_FIGURE, VALUE_THRESHOLDS } from './fleet-feed.ts';

/** The Performance tab: Scanner Performance, Discovery Trends and Connection Status. */
export function PerformanceTab({
  networkStats,
  discoveries,
  connected,
  lastUpdate,
}: {
  /** Null until the first figures arrive: the rows made from them show placeholders. */
  networkStats: NetworkStats | null;
  /** The discoveries the page holds (newest first). */
  discoveries: PetDiscovery[];
  connected: boolean;
  /** Epoch ms of the last fleet message, or null. */
  lastUpdate: number | null;
}) {
  const active = networkStats?.activeBots ?? 0;
  const perBot = (n: number | undefined) =>
    n === undefined ? NO_FIGURE : (active > 0 ? n / active : 0).toFixed(1);
  const atLeast = (min: number) => discoveries.filter((d) => d.numericValue >= min).length;
  // Bot efficiency: the share of the fleet doing useful work (active or scanning).
  const efficiency = !networkStats
    ? NO_FIGURE
    : `${networkStats.totalBots > 0 ? Math.round((active / networkStats.totalBots) * 100) : 0}%`;

  return (
    <div className="grid gap-4 md:grid-cols-3">
      <MetricCard title="Scanner Performance">
        <Row label="Avg Scans/Min per Bot" value={perBot(networkStats?.totalScansPerMinute)} />
        <Row
          label="Network Uptime"
          value={networkStats ? `${networkStats.averageUptime.toFixed(1)}%` : NO_FIGURE}
        />
        <Row label="Bot Efficiency" value={efficiency} />
      </MetricCard>
      <MetricCard title="Discovery Trends">
        <Row label="$500K+ Pets" value={atLeast(VALUE_THRESHOLDS.high).toLocaleString('en-US')} />
        <Row label="$1M+ Pets" value={atLeast(VALUE_THRESHOLDS.million).toLocaleString('en-US')} />
        <Row label="$5M+ Pets" value={atLeast(VALUE_THRESHOLDS.premium).toLocaleString('en-US')} />
        <Row label="Pets per Active Bot" value={perBot(networkStats?.totalPetsFound)} />
      </MetricCard>
      <MetricCard title="Connection Status">
        <Row
          label="WebSocket"
          value={
            <Badge variant={connected ? 'success' : 'destructive'}>
              {connected ? 'Connected' : 'Disconnected'}
            </Badge>
          }
        />
        {/* Spec: always shown; the page is served by the API it would report on. */}
        <Row label="API Status" value={<Badge variant="success">Operational</Badge>} />
        <Row
          label="Last Update"
          value={lastUpdate === null ? 'Never' : new Date(lastUpdate).toLocaleTimeString('en-US')}
        />
      </MetricCard>
    </div>
  );
}

function MetricCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card role="group" aria-label={title}>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-2 text-sm">{children}</dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
