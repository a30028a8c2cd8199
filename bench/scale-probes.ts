/*
 * What bench:scale measures from outside the servers while a run lasts: each process's CPU and RSS
 * read from /proc every second, GET latencies sampled on a fixed schedule, and the event loop's p99
 * from the server's own /metrics.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  listenOverflowsFromNetstat,
  loopLagP99FromMetrics,
  type ProcessSample,
  type ProcessUsage,
  parseProcStat,
  summarizeUsage,
} from './scale-stats.ts';

function getconf(name: string, fallback: number): number {
  const value = Number(spawnSync('getconf', [name], { encoding: 'utf8' }).stdout?.trim());
  return value > 0 ? value : fallback;
}
const TICKS_PER_SECOND = getconf('CLK_TCK', 100);
const PAGE_BYTES = getconf('PAGESIZE', 4096);

/** Reads each process's /proc/<pid>/stat every second from start() to stop(). */
export class ProcessSampler {
  private readonly samples = new Map<string, ProcessSample[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pids: Record<string, number>) {}

  start(): void {
    this.read();
    this.timer = setInterval(() => this.read(), 1_000);
  }

  stop(): Record<string, ProcessUsage> {
    clearInterval(this.timer);
    this.read();
    const usage: Record<string, ProcessUsage> = {};
    for (const name of Object.keys(this.pids))
      usage[name] = summarizeUsage(this.samples.get(name) ?? [], TICKS_PER_SECOND);
    return usage;
  }

  private read(): void {
    const at = performance.now();
    for (const [name, pid] of Object.entries(this.pids)) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // gone: its figures end here
      }
      const { ticks, rssPages } = parseProcStat(text);
      const list = this.samples.get(name) ?? [];
      list.push({ at, ticks, rssBytes: rssPages * PAGE_BYTES });
      this.samples.set(name, list);
    }
  }
}

/** A request not answered by then is given up, and counted as a sample of this long. */
const PROBE_TIMEOUT_MS = 10_000;

export interface LatencySamples {
  /** Answers' times, and PROBE_TIMEOUT_MS for each request given up. */
  ms: number[];
  /** Requests given up after PROBE_TIMEOUT_MS (a server that stalls shows as slow, not as fewer samples). */
  timedOut: number;
  /** Non-2xx answers and connection errors. */
  failed: number;
}

/**
 * GETs `url` `perSecond` times a second on a fixed schedule: a slow answer does not hold back the
 * next request, so a stall shows in the figures rather than in fewer samples.
 */
export class LatencySampler {
  readonly result: LatencySamples = { ms: [], timedOut: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
    private readonly perSecond = 4,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.probe(), 1_000 / this.perSecond);
  }

  /** Stops asking and waits for the answers under way. */
  async stop(): Promise<LatencySamples> {
    clearInterval(this.timer);
    await Promise.allSettled([...this.pending]);
    return this.result;
  }

  private probe(): void {
    const started = performance.now();
    const request = fetch(this.url, { headers: this.headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) this.result.ms.push(performance.now() - started);
        else this.result.failed += 1;
      })
      .catch((error: Error) => {
        if (error.name !== 'TimeoutError') {
          this.result.failed += 1;
          return;
        }
        this.result.timedOut += 1;
        this.result.ms.push(PROBE_TIMEOUT_MS);
      })
      .finally(() => this.pending.delete(request));
    this.pending.add(request);
  }
}

/** The server's event-loop p99 (ms) since its previous /metrics scrape; null when /metrics is off or gave no answer in time. */
export async function scrapeLoopLagP99(baseUrl: string): Promise<number | null> {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const text = await res.text();
    return res.ok ? loopLagP99FromMetrics(text) : null;
  } catch {
    return null;
  }
}

/** The machine's listen-queue overflows so far (see listenOverflowsFromNetstat); null where Linux does not say. */
export function readListenOverflows(): number | null {
  try {
    return listenOverflowsFromNetstat(readFileSync('/proc/net/netstat', 'utf8'));
  } catch {
    return null;
  }
}
