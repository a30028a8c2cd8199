import type { OutboundResponse } from '../notifications/outbound-request.ts';
import { RateLimiter } from '../notifications/rate-limits.ts';

/*
 * Discord's rate-limit contract for the bot's REST calls (https://discord.com/developers/docs/topics/rate-limits),
 * on top of the notifications' RateLimiter (which reads X-RateLimit-Remaining / Reset-After, a 429's
 * retry_after and the global flag): routes are mapped to the bucket Discord names in
 * X-RateLimit-Bucket (plus the route's major parameter, the guild or webhook), a bucket with nothing
 * left lets one request through at a time, and 401, 403 and 429 answers are counted against
 * Discord's invalid-request limit (10,000 in 10 minutes bans the IP for an hour).
 */

/** Discord bans an IP that gets this many 401/403/429 answers in INVALID_WINDOW_MS. */
export const DISCORD_INVALID_LIMIT = 10_000;
export const INVALID_WINDOW_MS = 10 * 60_000;
/** We stop asking well before the ban: a tenth of Discord's limit. */
export const INVALID_BUDGET = 1_000;

/** Path segments whose id is a major parameter: the same route on two guilds is two buckets. */
const MAJOR = new Set(['guilds', 'channels', 'webhooks']);
const SNOWFLAKE = /^\d{15,25}$/;

/**
 * The route of a path as Discord buckets it: ids after a major segment kept (and a webhook's
 * token), every other id replaced, e.g. `PUT /guilds/1/members/:id/roles/:id`.
 */
export function routeOf(method: string, path: string): string {
  const parts = path.split('?')[0]!.split('/');
  const out = parts.map((part, i) => {
    const before = parts[i - 1] ?? '';
    if (MAJOR.has(before)) return part;
    // An interaction's webhook token: part of the major parameter.
    if (parts[i - 2] === 'webhooks') return part;
    return SNOWFLAKE.test(part) ? ':id' : part;
  });
  return `${method} ${out.join('/')}`;
}

/** The major parameter of a route (`guilds/1`), '' when it has none. */
function majorOf(route: string): string {
  const m = /\/(guilds|channels|webhooks)\/([^/]+)(?:\/([^/:]+))?/.exec(route);
  if (!m) return '';
  return m[1] === 'webhooks' ? `${m[1]}/${m[2]}/${m[3] ?? ''}` : `${m[1]}/${m[2]}`;
}

export class DiscordRateLimits {
  private readonly limiter: RateLimiter;
  /** Route → Discord's bucket hash, learned from X-RateLimit-Bucket. */
  private readonly bucketOf = new Map<string, string>();
  private readonly inFlight = new Map<string, number>();
  private readonly waiters = new Map<string, (() => void)[]>();
  /** When each counted 401/403/429 came (oldest first). */
  private readonly invalidAt: number[] = [];

  constructor(private readonly now: () => number) {
    this.limiter = new RateLimiter(now);
  }

  /** The limiter's key of a route: its bucket with the major parameter, or the route until known. */
  keyOf(route: string): string {
    const bucket = this.bucketOf.get(route);
    return bucket ? `${bucket}:${majorOf(route)}` : route;
  }

  /** Milliseconds before a request on this route may go (a 429 or an empty bucket), 0: now. */
  waitMs(route: string): number {
    return this.limiter.waitMs(this.keyOf(route));
  }

  /**
   * Whether one more request on the route may start now: never more at once than the bucket had
   * left at its last answer, and one at a time while that is unknown or 0.
   */
  mayStart(route: string): boolean {
    const key = this.keyOf(route);
    const allowed = Math.max(1, this.limiter.remaining(key) ?? 1);
    return (this.inFlight.get(key) ?? 0) < allowed;
  }

  /** Takes a place on the route (the caller checked mayStart); returns the key to release. */
  start(route: string): string {
    const key = this.keyOf(route);
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    return key;
  }

  /** Resolves when a request on the route has finished (then look again). */
  finished(route: string): Promise<void> {
    const key = this.keyOf(route);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      list.push(resolve);
      this.waiters.set(key, list);
    });
  }

  /** Learns from an answer and frees the place taken under `key`. */
  observe(route: string, key: string, res: OutboundResponse | null): void {
    if (res) {
      const bucket = res.headers['x-ratelimit-bucket'];
      if (bucket && !this.bucketOf.has(route)) this.bucketOf.set(route, bucket);
      this.limiter.observe(this.keyOf(route), res);
      if (this.keyOf(route) !== key) this.limiter.observe(key, res);
      // A 429 of a shared resource limit does not count toward the ban (the docs say so).
      const shared = res.headers['x-ratelimit-scope'] === 'shared';
      if (res.status === 401 || res.status === 403 || (res.status === 429 && !shared)) {
        this.invalidAt.push(this.now());
      }
    }
    this.inFlight.set(key, Math.max(0, (this.inFlight.get(key) ?? 1) - 1));
    const woken = [...(this.waiters.get(key) ?? []), ...(this.waiters.get(this.keyOf(route)) ?? [])];
    this.waiters.delete(key);
    this.waiters.delete(this.keyOf(route));
    for (const wake of woken) wake();
  }

  /** 401/403/429 answers in the last ten minutes. */
  invalidCount(): number {
    const since = this.now() - INVALID_WINDOW_MS;
    while (this.invalidAt.length > 0 && this.invalidAt[0]! <= since) this.invalidAt.shift();
    return this.invalidAt.length;
  }

  /** Milliseconds until the invalid-request budget has room again (0: it has). */
  invalidBudgetWaitMs(): number {
    if (this.invalidCount() < INVALID_BUDGET) return 0;
    const oldest = this.invalidAt[this.invalidAt.length - INVALID_BUDGET]!;
    return Math.max(1, oldest + INVALID_WINDOW_MS - this.now());
  }
}
