import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The lag is the 99th percentile over a window of this length (and the previous one). */
const WINDOW_MS = 10_000;
/** Node's sampling timer period; each sample is this period plus the lag, so it is taken off. */
const RESOLUTION_MS = 10;

/**
 * How late the event loop runs, sampled continuously by Node (perf_hooks): the liveness probe's
 * figure. A window's histogram is kept until the next one closes, so a probe just after a reset
 * still sees the last 10 s.
 */
export class EventLoopLag {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private previousP99Ns = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.previousP99Ns = this.histogram.percentile(99);
      this.histogram.reset();
    }, WINDOW_MS);
    this.timer.unref();
  }

  /** Milliseconds, one decimal; 0 before the first sample. */
  get lagMs(): number {
    const current = this.histogram.count > 0 ? this.histogram.percentile(99) : 0;
    const lagMs = Math.max(current, this.previousP99Ns) / 1e6 - RESOLUTION_MS;
    return Math.max(0, Math.round(lagMs * 10) / 10);
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
