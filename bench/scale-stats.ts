/*
 * bench:scale's arithmetic: percentiles, CPU and memory from /proc/<pid>/stat samples, and the event
 * loop's p99 from a /metrics text. Pure functions (bench/scale.test.ts).
 */

/** The value at or below which share `p` (0–1) of the values fall (nearest rank); NaN without values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1]!;
}

/** CPU time (user + system, clock ticks) and resident pages, from the text of /proc/<pid>/stat. */
export function parseProcStat(text: string): { ticks: number; rssPages: number } {
  // Field 2, the command, is in parentheses and may hold spaces: count from after its ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15, rss 24 (proc(5)).
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssPages = Number(fields[21]);
  if (!Number.isFinite(ticks) || !Number.isFinite(rssPages))
    throw new Error(`not a /proc stat line: ${text}`);
  return { ticks, rssPages };
}

/** One reading of a process: when (ms, any monotonic clock), its CPU ticks so far and its RSS. */
export interface ProcessSample {
  at: number;
  ticks: number;
  rssBytes: number;
}

export interface ProcessUsage {
  /** % of one core over the whole span. */
  cpuMeanPercent: number;
  /** % of one core in the busiest interval between two readings. */
  cpuMaxPercent: number;
  rssMaxBytes: number;
}

/** CPU mean and max (% of one core) and peak RSS from readings taken about a second apart. */
export function summarizeUsage(samples: readonly ProcessSample[], ticksPerSecond: number): ProcessUsage {
  const percent = (from: ProcessSample, to: ProcessSample) =>
    to.at > from.at ? ((to.ticks - from.ticks) / ticksPerSecond / ((to.at - from.at) / 1000)) * 100 : 0;
  let cpuMaxPercent = 0;
  for (let i = 1; i < samples.length; i++)
    cpuMaxPercent = Math.max(cpuMaxPercent, percent(samples[i - 1]!, samples[i]!));
  const first = samples[0];
  const last = samples.at(-1);
  return {
    cpuMeanPercent: first && last ? percent(first, last) : Number.NaN,
    cpuMaxPercent: samples.length > 1 ? cpuMaxPercent : Number.NaN,
    rssMaxBytes: Math.max(0, ...samples.map((s) => s.rssBytes)),
  };
}

/**
 * prom-client samples the loop every 10 ms (its default precision), and each sample is that period
 * plus the delay, so it is taken off, as /healthz's figure does (server/operations/event-loop-lag.ts).
 */
const PROM_CLIENT_RESOLUTION_MS = 10;

/**
 * The event loop's p99 delay in ms from a /metrics text: since the previous scrape, as prom-client
 * resets its histogram at every scrape. Null when the text has no such line.
 */
export function loopLagP99FromMetrics(text: string): number | null {
  const match = /^nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * 1000 - PROM_CLIENT_RESOLUTION_MS;
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/**
 * How many times a listening socket's accept queue overflowed on this machine (any process's), from
 * the text of /proc/net/netstat: each is a connection attempt dropped because a server did not accept
 * fast enough (the client tries again after 1, 3, 7 s). Null when the counter is not there.
 */
export function listenOverflowsFromNetstat(text: string): number | null {
  const [names, values] = text.split('\n').filter((line) => line.startsWith('TcpExt:'));
  const index = names?.split(/\s+/).indexOf('ListenOverflows') ?? -1;
  const value = index > 0 ? Number(values?.split(/\s+/)[index]) : Number.NaN;
  return Number.isFinite(value) ? value : null;
}
