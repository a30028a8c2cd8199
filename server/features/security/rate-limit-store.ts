/*
 * Fixed-window request counters for the rate limits (features/security/rate-limit-hooks.ts). The limiter
 * talks to them only through `RateLimitStore`: this in-memory one by default, the Redis-backed one
 * (redis-rate-limit-store.ts) with REDIS_URL, so several instances share their counts.
 */

/** One counted request: the identifier's requests so far in its current window, this one included. */
export interface RateLimitCount {
  count: number;
  /** Epoch ms when the window ends and the count starts again from zero. */
  resetAt: number;
}

/** What the status screen shows of the live counters. */
export interface RateLimitStoreStats {
  /** Identifiers with a live window (requests counted right now). */
  totalLimits: number;
  /** Identifiers over their limit right now: refused until their window ends. */
  activeLimits: number;
}

export interface RateLimitStore {
  /**
   * Counts one request for `key` in its fixed window of `windowMs` (a new window starts at the
   * first request after the previous one ended). `max` is the key's limit, kept so `stats` can tell
   * which keys are over it.
   */
  hit(key: string, max: number, windowMs: number): RateLimitCount | Promise<RateLimitCount>;
  /** The key's live window without counting a request; null when it has none. */
  peek(key: string): RateLimitCount | null | Promise<RateLimitCount | null>;
  stats(): RateLimitStoreStats | Promise<RateLimitStoreStats>;
  /** A shared store only: true while it cannot reach its backend and counts per instance (a metric). */
  readonly usingFallback?: boolean;
  /** A shared store only: requests counted per instance because the backend did not answer (a metric). */
  readonly fallbackHits?: number;
}

interface Window {
  count: number;
  resetAt: number;
  max: number;
}

export interface MemoryRateLimitStoreOptions {
  /** Epoch milliseconds; tests pass their fake clock. */
  now?: () => number;
  /** Most identifiers held at once; past it the oldest window is dropped (a flood of new IPs cannot grow memory). */
  maxEntries?: number;
  /** Ended windows are swept at most this often, on the next hit. */
  sweepEveryMs?: number;
}

/**
 * The in-process store: a Map from key to its window. A window that starts again is moved to the
 * end of the Map, so the Map stays ordered by window start and its first entry is always the
 * oldest, which is the one dropped when the Map is full.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly sweepEveryMs: number;
  private nextSweepAt = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10_000;
  }

  hit(key: string, max: number, windowMs: number): RateLimitCount {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined) {
      if (this.windows.size >= this.maxEntries) this.dropOldest();
      window = { count: 0, resetAt: now + windowMs, max };
      this.windows.set(key, window);
    } else if (now >= window.resetAt) {
      window.count = 0;
      window.resetAt = now + windowMs;
      this.windows.delete(key);
      this.windows.set(key, window);
    }
    window.count++;
    window.max = max;
    // A copy: the caller may read it after an await, when another request has counted again.
    return { count: window.count, resetAt: window.resetAt };
  }

  peek(key: string): RateLimitCount | null {
    const window = this.windows.get(key);
    if (window === undefined || this.now() >= window.resetAt) return null;
    return { count: window.count, resetAt: window.resetAt };
  }

  stats(): RateLimitStoreStats {
    const now = this.now();
    let totalLimits = 0;
    let activeLimits = 0;
    for (const window of this.windows.values()) {
      if (now >= window.resetAt) continue;
      totalLimits++;
      if (window.count > window.max) activeLimits++;
    }
    return { totalLimits, activeLimits };
  }

  /** Windows held in memory, ended ones not yet swept included. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [key, window] of this.windows) if (now >= window.resetAt) this.windows.delete(key);
  }

  private dropOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
