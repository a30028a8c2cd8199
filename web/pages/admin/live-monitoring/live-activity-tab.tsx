import { Activity, CheckCircle2, Clock, XCircle } from 'lucide-react';
import { memo, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import {
  HOP_REASONS,
  type HopStats,
  type ServerHopEvent,
  type SuccessTrend,
} from '../../../../common/fleet.ts';
import { StatCard } from '../shared/stat-card.tsx';
import { FleetChart } from './fleet-chart.tsx';
import { FEED_BUFFERS, type LiveEvent, NO_FIGURE } from './fleet-feed.ts';
import { HOP_REASON_LABELS, HopTimeline } from './hop-timeline.tsx';
import { LiveEventFeed } from './live-event-feed.tsx';
import { formatTime } from './scanner-status-tab.tsx';
import { VirtualRows } from './virtual-rows.tsx';

/** A render slower than one 60 Hz frame is marked as poor. */
export const GOOD_RENDER_MS = 16;

export interface LiveActivityTabProps {
  /** Newest first. */
  hops: ServerHopEvent[];
  /** Newest first. */
  events: LiveEvent[];
  hopStats: HopStats | null;
  totals: { events: number; hops: number };
  /** The network is under an emergency stop. */
  stopped?: boolean;
}

/** Spec section 2 "Live Activity". */
export function LiveActivityTab({ hops, events, hopStats, totals, stopped = false }: LiveActivityTabProps) {
  const timings = useRenderTimings();
  return (
    <div className="flex flex-col gap-4">
      <HopStatCards stats={hopStats} />
      <div className="grid gap-4 lg:grid-cols-2">
        <HopReasonsCard stats={hopStats} />
        <SuccessTrendsCard stats={hopStats} stopped={stopped} />
      </div>
      <FleetChart lastHour={hopStats?.lastHour ?? []} />
      <LiveEventFeed events={events} totals={totals} />
      <HopTimeline hops={hops} />
      <LiveEventsCard events={events} />
      <PerformanceMetricsCard timings={timings} />
    </div>
  );
}

const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

/** Days as the Total Hops card says them. */
const lastDays = (days: number) => `Last ${days} ${days === 1 ? 'day' : 'days'}`;

/** The four hop figures; placeholders until the server's statistics arrive. */
export function HopStatCards({ stats }: { stats: HopStats | null }) {
  if (!stats) {
    return (
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard title="Total Hops" value={NO_FIGURE} icon={Activity} hint="Hops kept on the server" />
        <StatCard title="Success Rate" value={NO_FIGURE} icon={CheckCircle2} hint="Of the hops kept" />
        <StatCard title="Avg Latency" value={NO_FIGURE} icon={Clock} hint="Per hop" />
        <StatCard title="Failed Hops" value={NO_FIGURE} icon={XCircle} hint="Hops that did not land" />
      </div>
    );
  }
  const total = stats.totalHops;
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {/* Every hop the server keeps (FLEET_RETENTION_DAYS), across restarts: not reset by one. */}
      <StatCard title="Total Hops" value={total} icon={Activity} hint={lastDays(stats.keptDays)} />
      <StatCard
        title="Success Rate"
        value={`${percent(stats.successfulHops, total).toFixed(1)}%`}
        icon={CheckCircle2}
        hint={`${stats.successfulHops.toLocaleString('en-US')} successful`}
      />
      <StatCard
        title="Avg Latency"
        value={`${Math.round(stats.averageLatency)}ms`}
        icon={Clock}
        hint="Per hop"
      />
      <StatCard
        title="Failed Hops"
        value={stats.failedHops}
        icon={XCircle}
        hint="Hops that did not land"
        tone={stats.failedHops > 0 ? 'text-red-400' : undefined}
      />
    </div>
  );
}

export function HopReasonsCard({ stats }: { stats: HopStats | null }) {
  const total = stats ? HOP_REASONS.reduce((sum, r) => sum + stats.hopsByReason[r], 0) : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Hop Reasons</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-3">
          {HOP_REASONS.map((reason) => {
            const count = stats?.hopsByReason[reason] ?? 0;
            const share = percent(count, total);
            return (
              <li key={reason} aria-label={HOP_REASON_LABELS[reason]} className="text-sm">
                <div className="flex justify-between">
                  <span>{HOP_REASON_LABELS[reason]}</span>
                  <span className="tabular-nums">
                    {stats ? `${count} (${share.toFixed(1)}%)` : NO_FIGURE}
                  </span>
                </div>
                <Progress value={share} aria-label={`${HOP_REASON_LABELS[reason]} share`} />
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

const formatRate = (rate: number | null) => (rate === null ? 'No hops' : `${rate.toFixed(1)}%`);

/**
 * The two rates and the server's verdict (common successTrend). Before the first figures it shows
 * placeholders, not a verdict; with no hops in the windows, No data (a silent fleet is not
 * Improving); under an emergency stop, Stopped: no hop is made, so neither Improving nor Declining
 * says anything.
 */
export function SuccessTrendsCard({ stats, stopped = false }: { stats: HopStats | null; stopped?: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Success Trends</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-muted-foreground">Last 15 minutes</dt>
          <dd className="text-right tabular-nums">{stats ? formatRate(stats.successRate15m) : NO_FIGURE}</dd>
          <dt className="text-muted-foreground">Last 30 minutes</dt>
          <dd className="text-right tabular-nums">{stats ? formatRate(stats.successRate30m) : NO_FIGURE}</dd>
          <dt className="text-muted-foreground">Network Status</dt>
          <dd className="text-right">
            <NetworkStatusBadge trend={stopped ? 'Stopped' : stats ? (stats.trend ?? NO_TREND) : null} />
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}

/** The badge while the windows hold no hop to compare. */
export const NO_TREND = 'No data';

type NetworkStatus = SuccessTrend | 'Stopped' | typeof NO_TREND;

const NETWORK_STATUS_BADGE: Record<NetworkStatus, string> = {
  Improving: 'bg-green-700 text-white',
  Declining: 'bg-red-600 text-white',
  Stopped: 'bg-gray-500 text-white',
  [NO_TREND]: 'bg-zinc-700 text-zinc-100',
};

function NetworkStatusBadge({ trend }: { trend: NetworkStatus | null }) {
  if (trend === null) return <span className="tabular-nums">{NO_FIGURE}</span>;
  return <Badge className={`border-transparent ${NETWORK_STATUS_BADGE[trend]}`}>{trend}</Badge>;
}

/** The Live Events Feed card's scroll area, and the height of a one-line row (a longer one grows). */
const EVENTS_CARD_HEIGHT = 400;
const EVENT_LINE_HEIGHT = 28;

/** Spec: the Live Events Feed card, a 400 px list of the newest lines. */
export function LiveEventsCard({ events }: { events: LiveEvent[] }) {
  const shown = events.slice(0, FEED_BUFFERS.liveEvents.show);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Live Events Feed</CardTitle>
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground" style={{ height: EVENTS_CARD_HEIGHT }}>
            No live events yet...
          </p>
        ) : (
          <VirtualRows
            items={shown}
            rowHeight={EVENT_LINE_HEIGHT}
            height={EVENTS_CARD_HEIGHT}
            keyOf={eventKey}
            renderRow={renderEventLine}
            label="Live Events Feed"
            testId="live-events-card"
            measureRows
          />
        )}
      </CardContent>
    </Card>
  );
}

const eventKey = (event: LiveEvent) => event.id;
const renderEventLine = (event: LiveEvent) => <LiveEventLine event={event} />;

/**
 * Memoized: events never change once received, so a new batch renders only the new rows. The message
 * is never cut: a long one (a failed hop's error, on a phone) wraps and its row grows to fit.
 */
const LiveEventLine = memo(function LiveEventLine({ event }: { event: LiveEvent }) {
  return (
    <p className="flex min-h-7 items-baseline gap-2 py-1 text-sm" data-testid="live-event-line">
      <span className="shrink-0 text-xs text-muted-foreground">{formatTime(event.timestamp)}</span>
      <span className="min-w-0 wrap-anywhere">{event.message}</span>
    </p>
  );
});

export interface RenderMetrics {
  renderCount: number;
  averageMs: number;
  lastMs: number;
}

interface RenderTimings {
  count: number;
  totalMs: number;
  lastMs: number;
}

/**
 * Times each render of the tab: from the start of its render pass (its children render within it)
 * to its layout effect, which runs once all of it is committed to the DOM. React's <Profiler> would
 * measure the same, but only in development builds; this works in the build operators run.
 */
function useRenderTimings(): RefObject<RenderTimings> {
  const timings = useRef<RenderTimings>({ count: 0, totalMs: 0, lastMs: 0 });
  const started = performance.now();
  useLayoutEffect(() => {
    const ms = performance.now() - started;
    timings.current.count += 1;
    timings.current.totalMs += ms;
    timings.current.lastMs = ms;
  });
  return timings;
}

/**
 * The timings as the card shows them, read once a second. The card holds this state itself: were it
 * the tab's, showing a render's timing would render the tab again, and count itself, forever.
 */
function useMetricsSnapshot(timings: RefObject<RenderTimings>): RenderMetrics {
  const [snapshot, setSnapshot] = useState<RenderMetrics>({ renderCount: 0, averageMs: 0, lastMs: 0 });
  useEffect(() => {
    const timer = setInterval(() => {
      const { count, totalMs, lastMs } = timings.current;
      setSnapshot((prev) =>
        prev.renderCount === count
          ? prev
          : { renderCount: count, averageMs: count ? totalMs / count : 0, lastMs },
      );
    }, 1000);
    return () => clearInterval(timer);
  }, [timings]);
  return snapshot;
}

export function PerformanceMetricsCard({ timings }: { timings: RefObject<RenderTimings> }) {
  const metrics = useMetricsSnapshot(timings);
  const good = metrics.averageMs < GOOD_RENDER_MS;
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle className="text-base">Real-time Performance Metrics</CardTitle>
        <Badge className={`border-transparent ${good ? 'bg-green-700 text-white' : 'bg-red-600 text-white'}`}>
          {good ? 'Good' : 'Poor'}
        </Badge>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-muted-foreground">Render Count</dt>
            <dd className="tabular-nums">{metrics.renderCount}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Avg Render Time</dt>
            <dd className="tabular-nums">{metrics.averageMs.toFixed(2)}ms</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Last Render Time</dt>
            <dd className="tabular-nums">{metrics.lastMs.toFixed(2)}ms</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
