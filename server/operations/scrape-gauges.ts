import { Counter, Gauge, type Registry } from 'prom-client';
import { SCANNER_STATUSES, type ScannerStatus } from '../../common/fleet.ts';

/*
 * The metrics read when Prometheus scrapes, from the state the app keeps anyway (sockets, the fleet,
 * the writer's counts) and three small database counts, rather than kept up to date on every change.
 */

/** What the database holds, read at scrape time within a time limit (metrics-sources.ts). */
export interface StoredFigures {
  poolServers: Record<string, number>;
  configTargets: Record<string, number>;
  emergencyStopped: boolean;
}

/** The app's current state, as the scrape-time metrics read it (metrics-sources.ts builds it). */
export interface ScrapeSources {
  /** Open sockets of this instance by kind (every registered kind, 0 included). */
  socketsByKind(): Iterable<[kind: string, open: number]>;
  /** Bots the fleet holds, by the status dashboards show. */
  botsByStatus(): Record<ScannerStatus, number>;
  /** The batched writer's figures since start. */
  writer(): { queuedRows: number; writtenRows: number; setAsideRows: number };
  /** The rate limits' counting: per instance (`usingFallback`) while their shared Redis does not answer. */
  rateLimits(): { usingFallback: boolean; fallbackHits: number };
  /** The database's figures, or undefined when they could not be read in time (the last ones are kept). */
  stored(): Promise<StoredFigures | undefined>;
}

/** Registers the scrape-time metrics; `sources` is undefined until the app has its services. */
export function registerScrapeGauges(registers: Registry[], sources: () => ScrapeSources | undefined): void {
  new Gauge({
    name: 'scanline_sockets_open',
    help: 'Open sockets on this instance by kind (bot, admin, feed).',
    labelNames: ['kind'],
    registers,
    collect() {
      for (const [kind, open] of sources()?.socketsByKind() ?? []) this.labels(kind).set(open);
    },
  });
  new Gauge({
    name: 'scanline_bots',
    help: 'Bots in the fleet by status (as dashboards show it: a silent bot is inactive).',
    labelNames: ['status'],
    registers,
    collect() {
      const counts = sources()?.botsByStatus();
      for (const status of SCANNER_STATUSES) this.labels(status).set(counts?.[status] ?? 0);
    },
  });
  new Gauge({
    name: 'scanline_writer_queue_rows',
    help: 'Rows the batched writer holds unwritten (queued or being written).',
    registers,
    collect() {
      this.set(sources()?.writer().queuedRows ?? 0);
    },
  });
  // Counters whose running total the writer keeps: each scrape sets them to it.
  new Counter({
    name: 'scanline_writer_rows_written_total',
    help: 'Rows the batched writer committed since start.',
    registers,
    collect() {
      this.reset();
      this.inc(sources()?.writer().writtenRows ?? 0);
    },
  });
  new Counter({
    name: 'scanline_writer_rows_set_aside_total',
    help: 'Rows the database refused (a constraint, a bad value): logged and set aside, never written.',
    registers,
    collect() {
      this.reset();
      this.inc(sources()?.writer().setAsideRows ?? 0);
    },
  });
  new Gauge({
    name: 'scanline_rate_limit_fallback',
    help: '1 while rate limits count per instance because their shared Redis does not answer.',
    registers,
    collect() {
      this.set(sources()?.rateLimits().usingFallback ? 1 : 0);
    },
  });
  new Counter({
    name: 'scanline_rate_limit_fallback_hits_total',
    help: 'Requests the rate limits counted per instance while their shared Redis did not answer.',
    registers,
    collect() {
      this.reset();
      this.inc(sources()?.rateLimits().fallbackHits ?? 0);
    },
  });
  registerStoredFigureGauges(registers, sources);
}

/** Gauges of what the database holds: read once per scrape (shared by the four), within a time limit. */
function registerStoredFigureGauges(registers: Registry[], sources: () => ScrapeSources | undefined): void {
  let scrape: Promise<StoredFigures | undefined> | undefined;
  // prom-client collects every metric at once: the first gauge starts the read, the others join it.
  const stored = () => {
    scrape ??= (sources()?.stored() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => {
        scrape = undefined;
      });
    return scrape;
  };
  new Gauge({
    name: 'scanline_stored_figures_up',
    help: 'Whether this scrape read the database figures (pool, configuration, emergency); 0: the database did not answer in time and the last ones are shown.',
    registers,
    async collect() {
      this.set((await stored()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'scanline_pool_servers',
    help: 'Game servers in the server pool by status (available, assigned, deleted).',
    labelNames: ['status'],
    registers,
    async collect() {
      const figures = await stored();
      for (const [status, n] of Object.entries(figures?.poolServers ?? {})) this.labels(status).set(n);
    },
  });
  new Gauge({
    name: 'scanline_config_targets',
    help: 'Configuration pushes to bots by state (pending, applied, failed).',
    labelNames: ['state'],
    registers,
    async collect() {
      const figures = await stored();
      for (const [state, n] of Object.entries(figures?.configTargets ?? {})) this.labels(state).set(n);
    },
  });
  new Gauge({
    name: 'scanline_emergency_stopped',
    help: 'Whether the network is under an emergency stop (1) or running (0).',
    registers,
    async collect() {
      const figures = await stored();
      if (figures) this.set(figures.emergencyStopped ? 1 : 0);
    },
  });
}
