import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's recent request durations (the health report's performance figures). */
    requestTimings: RequestTimings;
  }
  interface FastifyContextConfig {
    /**
     * Leave this route's requests out of the request timings: the health report's own calls (they
     * would measure themselves) and long polls, whose waiting is their job, not slowness.
     */
    skipRequestTiming?: boolean;
  }
}

/** The window keeps the last this many requests… */
export const REQUEST_WINDOW_SIZE = 1000;
/** …of the last this many milliseconds (older ones no longer describe the server). */
export const REQUEST_WINDOW_MS = 5 * 60_000;

export interface RequestTimingStats {
  /** Requests in the window. */
  count: number;
  /** Mean, median and 95th percentile duration in ms (one decimal); 0 with no requests. */
  mean: number;
  p50: number;
  p95: number;
}

const oneDecimal = (ms: number) => Math.round(ms * 10) / 10;

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/**
 * A fixed-size ring of (time, duration) pairs: recording is O(1) and allocation-free on every
 * request; the statistics sort a copy of at most REQUEST_WINDOW_SIZE numbers when asked.
 */
export class RequestTimings {
  private readonly at: Float64Array;
  private readonly durations: Float64Array;
  private next = 0;
  private size = 0;

  constructor(
    private readonly now: () => number,
    private readonly capacity = REQUEST_WINDOW_SIZE,
    private readonly windowMs = REQUEST_WINDOW_MS,
  ) {
    this.at = new Float64Array(capacity);
    this.durations = new Float64Array(capacity);
  }

  record(durationMs: number): void {
    this.at[this.next] = this.now();
    this.durations[this.next] = durationMs;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  stats(): RequestTimingStats {
    const since = this.now() - this.windowMs;
    const recent: number[] = [];
    for (let i = 0; i < this.size; i++) {
      if ((this.at[i] ?? 0) >= since) recent.push(this.durations[i] ?? 0);
    }
    if (recent.length === 0) return { count: 0, mean: 0, p50: 0, p95: 0 };
    const sorted = Float64Array.from(recent).sort();
    const sum = recent.reduce((total, ms) => total + ms, 0);
    return {
      count: recent.length,
      mean: oneDecimal(sum / recent.length),
      p50: oneDecimal(percentile(sorted, 0.5)),
      p95: oneDecimal(percentile(sorted, 0.95)),
    };
  }
}

/**
 * Records how long every request took (Fastify's `reply.elapsedTime`: from receiving it to the
 * response sent) into `app.requestTimings`. Socket upgrades are left out (their "request" lasts as
 * long as the socket), and so are routes that opt out with `config.skipRequestTiming`. `now` is the
 * app's clock, so the window ages with it.
 */
export function registerRequestTimings(app: FastifyInstance, now: () => number): void {
  const timings = new RequestTimings(now);
  app.decorate('requestTimings', timings);
  // Callback style: this runs on every response, the loader's hot path included.
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.ws && !request.routeOptions.config.skipRequestTiming) timings.record(reply.elapsedTime);
    done();
  });
}
