import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { oneDecimal } from './rounding.ts';

/** % of the heap V8 lets this process grow to (`--max-old-space-size` or its default) that is in use. */
export function heapUsagePercent(): number {
  const { heap_size_limit: limit } = getHeapStatistics();
  return oneDecimal((process.memoryUsage().heapUsed / limit) * 100);
}

/**
 * % of one CPU this process used (user + system) between two samples: the CPU time
 * `process.cpuUsage()` grew by over the wall time that passed. The first sample covers the time
 * since the process started. Above 100 when worker threads (the Lua parser) kept more than one core
 * busy. Wall time is the real clock, not the app's: CPU time is real too.
 */
export class CpuSampler {
  private previous: { cpuMicros: number; wallMs: number } | undefined;

  sample(): number {
    const usage = process.cpuUsage();
    const cpuMicros = usage.user + usage.system;
    const wallMs = performance.now();
    // performance.now() counts from the process's start, so the first interval is its whole life.
    const since = this.previous ?? { cpuMicros: 0, wallMs: 0 };
    this.previous = { cpuMicros, wallMs };
    const elapsedMs = wallMs - since.wallMs;
    if (elapsedMs <= 0) return 0;
    return oneDecimal(((cpuMicros - since.cpuMicros) / 1000 / elapsedMs) * 100);
  }
}
