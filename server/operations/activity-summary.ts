import type { FastifyInstance } from 'fastify';
import type { ScannerStatus } from '../../common/fleet.ts';
import type { AppContext } from '../context.ts';
import { logsAt } from '../plugins/request-log.ts';
import type { ClaimOutcome, Metrics, MetricTotals, NotificationOutcome } from './metrics.ts';
import { scrapeSources } from './metrics-sources.ts';

/*
 * The log's minute summary: what `info` says about the traffic instead of a line per request
 * (plugins/request-log.ts). Its figures are the differences of the counters /metrics exports
 * (metrics.ts), so nothing is counted twice; the bots and sockets are the state at the time of the line.
 */

/** How often the summary is written: every minute in which something happened. */
export const ACTIVITY_SUMMARY_EVERY_MS = 60_000;

/** What happened between two readings of the counters. */
export interface ActivityCounts {
  requests: { total: number; '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  /** The route with the longest mean answer time, long polls left out; absent without requests. */
  slowest?: { route: string; meanMs: number; count: number };
  hops: { total: number; failed: number };
  finds: number;
  claims: Record<ClaimOutcome, number>;
  feedDeliveries: number;
  /** Notification deliveries (finds and alerts to Discord or JSON endpoints) settled, by outcome. */
  notifications: Record<NotificationOutcome, number>;
  rateLimited: number;
}

/** One summary line's fields: the counts, and the fleet and sockets as they are now. */
export interface ActivitySummary extends ActivityCounts {
  bots: Record<ScannerStatus, number>;
  sockets: Record<string, number>;
}

type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

function statusClass(status: number): StatusClass | null {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return status >= 200 ? '2xx' : null;
}

/**
 * The counts between `before` and `after`. `untimed` names routes (`GET /api/script/feed`) whose
 * waiting is their job (long polls): counted, never the slowest.
 */
export function activityBetween(
  before: MetricTotals,
  after: MetricTotals,
  untimed: ReadonlySet<string> = new Set(),
): ActivityCounts {
  const earlier = new Map(before.requests.map((r) => [`${r.method} ${r.route} ${r.status}`, r]));
  const requests = { total: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  const byRoute = new Map<string, { count: number; seconds: number }>();
  for (const series of after.requests) {
    const was = earlier.get(`${series.method} ${series.route} ${series.status}`);
    const count = series.count - (was?.count ?? 0);
    if (count <= 0) continue;
    requests.total += count;
    const cls = statusClass(series.status);
    if (cls) requests[cls] += count;
    const route = `${series.method} ${series.route}`;
    if (untimed.has(route)) continue;
    const seen = byRoute.get(route) ?? { count: 0, seconds: 0 };
    seen.count += count;
    seen.seconds += series.seconds - (was?.seconds ?? 0);
    byRoute.set(route, seen);
  }
  let slowest: ActivityCounts['slowest'];
  for (const [route, { count, seconds }] of byRoute) {
    const meanMs = Math.round((seconds / count) * 10_000) / 10;
    if (!slowest || meanMs > slowest.meanMs) slowest = { route, meanMs, count };
  }
  const claims = { ...after.claims };
  for (const outcome of Object.keys(claims) as ClaimOutcome[]) claims[outcome] -= before.claims[outcome];
  return {
    requests,
    ...(slowest ? { slowest } : {}),
    hops: {
      total: after.hops.success + after.hops.failure - before.hops.success - before.hops.failure,
      failed: after.hops.failure - before.hops.failure,
    },
    finds: after.finds - before.finds,
    claims,
    feedDeliveries: after.feedDeliveries - before.feedDeliveries,
    notifications: {
      sent: after.notifications.sent - before.notifications.sent,
      failed: after.notifications.failed - before.notifications.failed,
      retried: after.notifications.retried - before.notifications.retried,
    },
    rateLimited: after.rateLimitRefusals - before.rateLimitRefusals,
  };
}

/** Whether anything happened: a quiet minute writes no line. */
export function anythingHappened(counts: ActivityCounts): boolean {
  const claims = Object.values(counts.claims).reduce((a, b) => a + b, 0);
  const notifications = Object.values(counts.notifications).reduce((a, b) => a + b, 0);
  return (
    counts.requests.total +
      counts.hops.total +
      counts.finds +
      claims +
      counts.feedDeliveries +
      notifications >
    0
  );
}

/** `label` followed by the non-zero parts in brackets: `4 hops (1 failed)`. */
function withParts(label: string, parts: [string, number][]): string {
  const shown = parts.filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n}`);
  return shown.length > 0 ? `${label} (${shown.join(', ')})` : label;
}

/** The summary in a sentence a person reads at a glance (the fields carry the same figures). */
export function describeActivity(summary: ActivitySummary): string {
  const { requests, slowest, claims } = summary;
  const classes: [string, number][] = (['2xx', '3xx', '4xx', '5xx'] as const).map((c) => [c, requests[c]]);
  const parts = [withParts(`${requests.total} requests`, classes)];
  if (slowest) parts.push(`slowest ${slowest.route} ${slowest.meanMs} ms`);
  parts.push(withParts(`${summary.hops.total} hops`, [['failed', summary.hops.failed]]));
  parts.push(`${summary.finds} finds`);
  const claimed = Object.values(claims).reduce((a, b) => a + b, 0);
  if (claimed > 0)
    parts.push(
      withParts(`${claimed} pool claims`, [
        ['none left', claims.none_available],
        ['refused', claims.refused],
        ['failed', claims.failed],
      ]),
    );
  if (summary.feedDeliveries > 0) parts.push(`${summary.feedDeliveries} finds to feed clients`);
  const { sent, failed, retried } = summary.notifications;
  if (sent + failed + retried > 0)
    parts.push(
      withParts(`${sent} notifications sent`, [
        ['failed', failed],
        ['to retry', retried],
      ]),
    );
  if (summary.rateLimited > 0) parts.push(`${summary.rateLimited} rate-limited`);
  const bots = Object.values(summary.bots).reduce((a, b) => a + b, 0);
  const byStatus = Object.entries(summary.bots) as [string, number][];
  parts.push(withParts(`${bots} bots`, byStatus));
  return `last minute: ${parts.join(', ')}`;
}

/**
 * Writes the summary at `info` every ACTIVITY_SUMMARY_EVERY_MS from when the app is ready, for the
 * minutes in which something happened, until it closes. Registered before the routes (it notes the
 * long polls as they are added). Nothing runs when `info` is off or METRICS_ENABLED=false.
 */
export function registerActivitySummary(app: FastifyInstance, ctx: AppContext, metrics: Metrics): void {
  const untimed = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.config?.skipRequestTiming) return;
    for (const method of [route.method].flat()) untimed.add(`${method} ${route.url}`);
  });
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    if (!logsAt(app.log, 'info')) return;
    let last = await metrics.totals();
    if (!last) return;
    const state = scrapeSources(ctx, app);
    const writeOnce = async () => {
      try {
        const now = await metrics.totals();
        if (!now || !last) return;
        const counts = activityBetween(last, now, untimed);
        last = now;
        if (!anythingHappened(counts)) return;
        const activity: ActivitySummary = {
          ...counts,
          bots: state.botsByStatus(),
          sockets: Object.fromEntries(state.socketsByKind()),
        };
        app.log.info({ activity }, describeActivity(activity));
      } catch (err) {
        app.log.error({ err }, 'could not write the activity summary');
      }
    };
    timer = setInterval(() => {
      writing = writing.then(writeOnce);
    }, ACTIVITY_SUMMARY_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await writing;
  });
}
