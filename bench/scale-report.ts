/*
 * bench:scale's output: one run's figures as lines, and the table of every run with its ratio to
 * the 70-bot run on the same database and instance count. Pure (bench/scale.test.ts).
 */
import { BASELINE_BOTS, type RunPlan } from './scale-options.ts';
import type { LatencySamples } from './scale-probes.ts';
import { percentile } from './scale-stats.ts';

export interface InstanceFigures {
  name: string;
  cpuMeanPercent: number;
  cpuMaxPercent: number;
  rssMaxBytes: number;
  /** The event loop's p99 delay over the measured seconds (ms); null when /metrics gave none. */
  loopLagP99Ms: number | null;
}

export interface RunResult {
  plan: RunPlan;
  seconds: number;
  connected: number;
  /** The fewest bots connected at any reading during the measured seconds. */
  connectedMin: number;
  hopsOfferedPerSecond: number;
  hopsHandledPerSecond: number;
  /** Over the whole run: claims that found the pool empty, were refused (4xx), failed (5xx, no answer). */
  claims: { poolEmpty: number; refused: number; failed: number };
  errors: number;
  lastError: string | null;
  instances: InstanceFigures[];
  fleetCpuMeanPercent: number;
  healthz: LatencySamples;
  stats: LatencySamples;
  /** Hop → admin socket (ms): from bots on another instance than the admin socket's (two instances), or on the same. */
  hopToAdminOther: number[];
  hopToAdminSame: number[];
  hopsSentInWindow: number;
  connectionShortages: number;
  /** Bot socket upgrades nginx answered with an error, by status. */
  refusedUpgrades: Record<string, number>;
  /** Connection attempts this machine dropped during the measured seconds, its accept queues full (null: not known). */
  listenOverflows: number | null;
}

const MIB = 1024 * 1024;

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
}

/** `value` as a multiple of `base` (1.00×), or – when either is missing. */
export function ratio(value: number, base: number): string {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0 ? `${(value / base).toFixed(2)}×` : '–';
}

const p50p99 = (ms: number[]) => `${formatMs(percentile(ms, 0.5))}/${formatMs(percentile(ms, 0.99))}`;
const perInstance = (r: RunResult, figure: (i: InstanceFigures) => string) =>
  r.instances.map(figure).join(' + ');
const totalCpu = (r: RunResult) => r.instances.reduce((sum, i) => sum + i.cpuMeanPercent, 0);
/** The figure the hop → admin column shows: across instances when there are two, else on the one. */
const hopToAdmin = (r: RunResult) => (r.plan.instances === 2 ? r.hopToAdminOther : r.hopToAdminSame);

const samples = (l: LatencySamples) =>
  `${l.ms.length} samples${l.timedOut ? `, ${l.timedOut} of them given up at 10 s` : ''}, ${l.failed} failed`;

export function runLabel(plan: RunPlan): string {
  return `${plan.database} ×${plan.instances} ${plan.bots} bots`;
}

/** The 70-bot run with the same database and instance count, if it ran. */
export function baselineOf(result: RunResult, results: readonly RunResult[]): RunResult | undefined {
  return results.find(
    (r) =>
      r.plan.bots === BASELINE_BOTS &&
      r.plan.database === result.plan.database &&
      r.plan.instances === result.plan.instances,
  );
}

/** One run's figures, each against the baseline's when there is one (and this is not it). */
export function describeRun(r: RunResult, baseline: RunResult | undefined): string[] {
  const vs = (value: number, base: number | undefined) =>
    baseline && baseline !== r && base !== undefined
      ? ` (${ratio(value, base)} the ${BASELINE_BOTS}-bot run)`
      : '';
  const hops = hopToAdmin(r);
  const where = r.plan.instances === 2 ? 'from bots on instance A to the admin socket on B' : 'same instance';
  const lines = [
    `bots connected: ${r.connected} of ${r.plan.bots} (fewest during the run ${r.connectedMin})`,
    `hops/s: offered ${r.hopsOfferedPerSecond.toFixed(1)}, handled (acknowledged) ${r.hopsHandledPerSecond.toFixed(1)}`,
    `claims: pool empty ${r.claims.poolEmpty}, refused ${r.claims.refused}, failed ${r.claims.failed}; ` +
      `simulator errors ${r.errors}${r.lastError ? ` (last: ${r.lastError})` : ''}`,
    ...r.instances.map(
      (i, n) =>
        `instance ${i.name}: CPU mean ${i.cpuMeanPercent.toFixed(0)}% (max ${i.cpuMaxPercent.toFixed(0)}%) of a core` +
        `${vs(i.cpuMeanPercent, baseline?.instances[n]?.cpuMeanPercent)}, RSS ${(i.rssMaxBytes / MIB).toFixed(0)} MiB, ` +
        `event-loop lag p99 ${i.loopLagP99Ms === null ? '– (/metrics gave none: off, or no answer within 10 s)' : `${formatMs(i.loopLagP99Ms)} ms`}`,
    ),
    `/healthz p50/p99: ${p50p99(r.healthz.ms)} ms (${samples(r.healthz)})` +
      vs(percentile(r.healthz.ms, 0.99), baseline && percentile(baseline.healthz.ms, 0.99)),
    `dashboard stats p50/p99: ${p50p99(r.stats.ms)} ms (${samples(r.stats)})` +
      vs(percentile(r.stats.ms, 0.99), baseline && percentile(baseline.stats.ms, 0.99)),
    `hop → admin socket p50/p99 (${where}): ${p50p99(hops)} ms, ${hops.length} hops` +
      vs(percentile(hops, 0.99), baseline && percentile(hopToAdmin(baseline), 0.99)),
  ];
  if (r.plan.instances === 2) {
    lines.push(
      `hop → admin socket p50/p99 (bots on B, same instance): ${p50p99(r.hopToAdminSame)} ms, ${r.hopToAdminSame.length} hops`,
    );
  }
  const arrived = r.hopToAdminOther.length + r.hopToAdminSame.length;
  if (arrived < r.hopsSentInWindow)
    lines.push(
      `hops sent that never reached the admin socket: ${r.hopsSentInWindow - arrived} of ${r.hopsSentInWindow}`,
    );
  if (r.listenOverflows)
    lines.push(
      `listen queues overflowed ${r.listenOverflows} times on this machine (connections dropped, retried after 1, 3, 7 s): a server accepting too slowly`,
    );
  const refused = Object.entries(r.refusedUpgrades);
  if (refused.length > 0)
    lines.push(
      `nginx answered bot socket upgrades with ${refused.map(([status, n]) => `${status} ×${n}`).join(', ')}`,
    );
  if (r.connectionShortages > 0)
    lines.push(`nginx: "worker_connections are not enough" ${r.connectionShortages} times`);
  lines.push(`simulator CPU mean ${r.fleetCpuMeanPercent.toFixed(0)}% of a core (the same 2 cores)`);
  return lines;
}

/** The table: one row per run; the last column is its total server CPU against its baseline's. */
export function resultTable(results: readonly RunResult[]): string {
  const rows = [
    [
      'run',
      'bots conn.',
      'hops/s offered/handled',
      'CPU % mean/max',
      'RSS MiB',
      'lag p99 ms',
      '/healthz p50/p99 ms',
      'stats p50/p99 ms',
      'hop→admin p99 ms',
      `CPU vs ${BASELINE_BOTS} bots`,
    ],
    ...results.map((r) => {
      const baseline = baselineOf(r, results);
      return [
        runLabel(r.plan),
        `${r.connected}/${r.plan.bots}`,
        `${r.hopsOfferedPerSecond.toFixed(0)}/${r.hopsHandledPerSecond.toFixed(0)}`,
        perInstance(r, (i) => `${i.cpuMeanPercent.toFixed(0)}/${i.cpuMaxPercent.toFixed(0)}`),
        perInstance(r, (i) => (i.rssMaxBytes / MIB).toFixed(0)),
        perInstance(r, (i) => (i.loopLagP99Ms === null ? '–' : formatMs(i.loopLagP99Ms))),
        p50p99(r.healthz.ms),
        p50p99(r.stats.ms),
        formatMs(percentile(hopToAdmin(r), 0.99)),
        baseline ? ratio(totalCpu(r), totalCpu(baseline)) : '–',
      ];
    }),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
