import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { FeedResponse } from '../../common/fleet.ts';
import { readPetValue } from '../../common/pet-value.ts';
import { RATE_LIMITED_CALLS, SECURITY_EVENT_TYPES } from '../../common/security.ts';
import { RouteDurations, type RouteTotal } from './route-durations.ts';
import { registerScrapeGauges, type ScrapeSources } from './scrape-gauges.ts';

/*
 * The app's Prometheus metrics: one registry per app (tests build many apps in one process), what
 * features record through the small typed methods of `Metrics`, and what is read at scrape time
 * from the state the app already keeps (ScrapeSources). GET /metrics is in metrics.routes.ts.
 */

declare module '../context.ts' {
  interface AppServices {
    /** What features record for GET /metrics (server/operations/metrics.ts); no-ops with METRICS_ENABLED=false. */
    metrics: Metrics;
  }
}

/** The bands a find's value falls in: the dashboards' million badge, the feed's 5M/s and 10M/s tiers. */
export const FIND_VALUE_BANDS = ['below_1m', '1m_to_5m', '5m_to_10m', '10m_and_up', 'unreadable'] as const;
export type FindValueBand = (typeof FIND_VALUE_BANDS)[number];

export function findValueBand(valueText: string): FindValueBand {
  const value = readPetValue(valueText);
  if (value === null) return 'unreadable';
  if (value < 1_000_000) return 'below_1m';
  if (value < 5_000_000) return '1m_to_5m';
  if (value < 10_000_000) return '5m_to_10m';
  return '10m_and_up';
}

/** How a server-pool claim ended: a server handed out, none left, refused (not in the fleet, holds too many), or failed. */
const CLAIM_OUTCOMES = ['claimed', 'none_available', 'refused', 'failed'] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];
/** What became of notification deliveries (finds and alerts) a post settled: sent, failed for good, to be retried. */
export const NOTIFICATION_OUTCOMES = ['sent', 'failed', 'retried'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];
/** How a feed client received its finds. */
const FEED_TRANSPORTS = ['poll', 'socket'] as const;
export type FeedTransport = (typeof FEED_TRANSPORTS)[number];
const FEED_TIERS: readonly FeedResponse['tier'][] = ['FREE', 'PREMIUM'];

/** What was counted since the app started: the log's minute summary takes differences (activity-summary.ts). */
export interface MetricTotals {
  requests: RouteTotal[];
  hops: { success: number; failure: number };
  finds: number;
  claims: Record<ClaimOutcome, number>;
  feedDeliveries: number;
  notifications: Record<NotificationOutcome, number>;
  rateLimitRefusals: number;
}

/** What features record, through one method each. With METRICS_ENABLED=false every method does nothing. */
export interface Metrics {
  readonly enabled: boolean;
  /** One HTTP request answered: `route` is the route's pattern, never the raw URL. */
  httpRequest(method: string, route: string, statusCode: number, seconds: number): void;
  hop(success: boolean): void;
  find(valueText: string): void;
  claim(outcome: ClaimOutcome): void;
  feedDelivered(transport: FeedTransport, tier: FeedResponse['tier'], finds: number): void;
  /** Notification deliveries (rows) one post settled, by outcome. */
  notificationsDelivered(outcome: NotificationOutcome, rows: number): void;
  rateLimitRefused(limit: string): void;
  auditRowsWritten(eventType: string, rows: number): void;
  /** One transaction of the batched writer committed (or failed) after `seconds`. */
  writerFlushed(seconds: number): void;
  /** The counts so far; null with METRICS_ENABLED=false (nothing is counted). */
  totals(): Promise<MetricTotals | null>;
  /** Where scrape-time gauges read from (set once the app's services exist). */
  readFrom(sources: ScrapeSources): void;
  /** The Prometheus text exposition of everything. */
  text(): Promise<string>;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** prom-client's gauges that end in `_total`, which promtool's lint refuses; `nodejs_active_*` say the same. */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

let processRegistry: Registry | undefined;

/**
 * The process's default metrics (CPU, memory, handles, GC, event-loop lag): one registry per process
 * (they describe the process, and the event-loop monitor is started once), merged into each app's
 * output at scrape time.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_DEFAULTS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/** Seconds buckets from the loader's sub-millisecond answers to a 25 s feed long-poll. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

class PrometheusMetrics implements Metrics {
  readonly enabled = true;
  private readonly registry = new Registry();
  private sources: ScrapeSources | undefined;
  private readonly httpDurations = new RouteDurations(
    'http_request_duration_seconds',
    'HTTP requests by method, route pattern (unmatched for unknown paths) and status, in seconds from receiving to answering.',
    HTTP_BUCKETS,
  );
  private readonly hops: Counter<'outcome'>;
  private readonly finds: Counter<'band'>;
  private readonly claims: Counter<'outcome'>;
  private readonly notifications: Counter<'outcome'>;
  private readonly feedCounts: Record<FeedTransport, Record<FeedResponse['tier'], number>> = {
    poll: { FREE: 0, PREMIUM: 0 },
    socket: { FREE: 0, PREMIUM: 0 },
  };
  private readonly rateLimitRefusals: Counter<'limit'>;
  private readonly auditRows: Counter<'event_type'>;
  private readonly writerFlush: Histogram;

  constructor() {
    processMetrics();
    const registers = [this.registry];
    this.hops = new Counter({
      name: 'scanline_hops_total',
      help: 'Server hops bots reported to this instance, by outcome (success or failure).',
      labelNames: ['outcome'],
      registers,
    });
    this.finds = new Counter({
      name: 'scanline_finds_total',
      help: 'Pet discoveries accepted by this instance (duplicates left out), by value band per second.',
      labelNames: ['band'],
      registers,
    });
    this.claims = new Counter({
      name: 'scanline_pool_claims_total',
      help: 'Server-pool claims by outcome: claimed, none_available, refused (not in the fleet, holds too many), failed.',
      labelNames: ['outcome'],
      registers,
    });
    const feedCounts = this.feedCounts;
    new Counter({
      name: 'scanline_feed_deliveries_total',
      help: 'Finds delivered to discovery-feed clients, by transport (poll, socket) and tier.',
      labelNames: ['transport', 'tier'],
      registers,
      // Counted in plain numbers (a find goes to every feed socket) and handed over at scrape time.
      collect() {
        this.reset();
        for (const transport of FEED_TRANSPORTS)
          for (const tier of FEED_TIERS) this.labels(transport, tier).inc(feedCounts[transport][tier]);
      },
    });
    this.notifications = new Counter({
      name: 'scanline_notification_deliveries_total',
      help: 'Notification deliveries (finds and operator alerts) settled by this instance, by outcome: sent, failed (given up), retried.',
      labelNames: ['outcome'],
      registers,
    });
    this.rateLimitRefusals = new Counter({
      name: 'scanline_rate_limit_refusals_total',
      help: 'Calls refused with 429 by a rate limit, by limit (login, redeem, challenge, loader, feed).',
      labelNames: ['limit'],
      registers,
    });
    this.auditRows = new Counter({
      name: 'scanline_audit_rows_written_total',
      help: 'Audit log rows the batched writer committed (loader, feed, bindings, rate-limit refusals), by event type.',
      labelNames: ['event_type'],
      registers,
    });
    this.writerFlush = new Histogram({
      name: 'scanline_writer_flush_duration_seconds',
      help: "Time of each of the batched writer's transactions, in seconds.",
      buckets: FLUSH_BUCKETS,
      registers,
    });
    // The label values known in advance start at 0, so a rate() over them is 0 rather than no data.
    for (const outcome of ['success', 'failure']) this.hops.labels(outcome).inc(0);
    for (const band of FIND_VALUE_BANDS) this.finds.labels(band).inc(0);
    for (const outcome of CLAIM_OUTCOMES) this.claims.labels(outcome).inc(0);
    for (const outcome of NOTIFICATION_OUTCOMES) this.notifications.labels(outcome).inc(0);
    for (const limit of RATE_LIMITED_CALLS) this.rateLimitRefusals.labels(limit).inc(0);
    for (const eventType of SECURITY_EVENT_TYPES) this.auditRows.labels(eventType).inc(0);

    registerScrapeGauges(registers, () => this.sources);
  }

  httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDurations.record(method, route, statusCode, seconds);
  }

  hop(success: boolean): void {
    this.hops.inc({ outcome: success ? 'success' : 'failure' });
  }

  find(valueText: string): void {
    this.finds.inc({ band: findValueBand(valueText) });
  }

  claim(outcome: ClaimOutcome): void {
    this.claims.inc({ outcome });
  }

  feedDelivered(transport: FeedTransport, tier: FeedResponse['tier'], finds: number): void {
    this.feedCounts[transport][tier] += finds;
  }

  notificationsDelivered(outcome: NotificationOutcome, rows: number): void {
    if (rows > 0) this.notifications.inc({ outcome }, rows);
  }

  rateLimitRefused(limit: string): void {
    this.rateLimitRefusals.inc({ limit });
  }

  auditRowsWritten(eventType: string, rows: number): void {
    if (rows > 0) this.auditRows.inc({ event_type: eventType }, rows);
  }

  writerFlushed(seconds: number): void {
    this.writerFlush.observe(seconds);
  }

  readFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  async totals(): Promise<MetricTotals> {
    const [hops, finds, claims, refusals, notifications] = await Promise.all(
      [this.hops, this.finds, this.claims, this.rateLimitRefusals, this.notifications].map(
        async (counter) => {
          const byLabel = new Map<string, number>();
          for (const { labels, value } of (await counter.get()).values) {
            const label = String(Object.values(labels)[0]);
            byLabel.set(label, (byLabel.get(label) ?? 0) + value);
          }
          return byLabel;
        },
      ),
    );
    const sum = (counts: Map<string, number> | undefined) =>
      [...(counts?.values() ?? [])].reduce((a, b) => a + b, 0);
    const feed = Object.values(this.feedCounts).flatMap((byTier) => Object.values(byTier));
    return {
      requests: this.httpDurations.totals(),
      hops: { success: hops?.get('success') ?? 0, failure: hops?.get('failure') ?? 0 },
      finds: sum(finds),
      claims: Object.fromEntries(CLAIM_OUTCOMES.map((o) => [o, claims?.get(o) ?? 0])) as Record<
        ClaimOutcome,
        number
      >,
      feedDeliveries: feed.reduce((a, b) => a + b, 0),
      notifications: Object.fromEntries(
        NOTIFICATION_OUTCOMES.map((o) => [o, notifications?.get(o) ?? 0]),
      ) as Record<NotificationOutcome, number>,
      rateLimitRefusals: sum(refusals),
    };
  }

  async text(): Promise<string> {
    const registered = await Registry.merge([processMetrics(), this.registry]).metrics();
    return `${registered}\n${this.httpDurations.exposition()}`;
  }
}

const nothing = () => {};

/** METRICS_ENABLED=false: nothing is recorded, nothing is read. */
const DISABLED: Metrics = {
  enabled: false,
  httpRequest: nothing,
  hop: nothing,
  find: nothing,
  claim: nothing,
  feedDelivered: nothing,
  notificationsDelivered: nothing,
  rateLimitRefused: nothing,
  auditRowsWritten: nothing,
  writerFlushed: nothing,
  readFrom: nothing,
  totals: async () => null,
  text: async () => '',
};

export function createMetrics(enabled: boolean): Metrics {
  return enabled ? new PrometheusMetrics() : DISABLED;
}
