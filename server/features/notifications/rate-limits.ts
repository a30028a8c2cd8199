import type { OutboundResponse } from './outbound-request.ts';

/*
 * Discord's rate limits as documented (https://discord.com/developers/docs/topics/rate-limits):
 * per-bucket X-RateLimit-Remaining / X-RateLimit-Reset-After, a 429's retry_after and global, the
 * Retry-After header; and what an answer means for a delivery.
 */

/** What to do with the deliveries a request carried, from its answer (or its network error). */
export type DeliveryOutcome =
  | { kind: 'sent' }
  /**
   * Try again no earlier than `afterMs` from now; `attempt` counts toward the give-up. `down`: the
   * destination did not take the connection or its gateway said it is away (refused, reset, 502-504):
   * a lane probes it to notice at once when it is back.
   */
  | { kind: 'retry'; afterMs: number; error: string; attempt: boolean; down?: boolean; rateLimited?: boolean }
  /** The destination is gone or refuses us: turn it off with this reason. */
  | { kind: 'disable'; reason: string; error: string }
  /** This delivery will never be accepted (a 4xx other than the above). */
  | { kind: 'fail'; error: string };

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 10;
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

/** Exponential backoff with full jitter (AWS's "full jitter"): uniform in [0, min(cap, base·2^n)). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts));
  return Math.floor(random() * ceiling);
}

function header(res: OutboundResponse, name: string): string | undefined {
  return res.headers[name.toLowerCase()];
}

function seconds(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number.parseFloat(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** A short, safe text of an answer for last_error (never the request, which holds the token). */
function describe(res: OutboundResponse): string {
  let detail = '';
  try {
    const parsed = JSON.parse(res.body) as { message?: unknown };
    if (typeof parsed.message === 'string') detail = `: ${parsed.message}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${res.status}${detail}`.slice(0, 300);
}

/** How long a 429 asks to wait, in ms, and whether it is the global limit. */
export function retryAfterOf(res: OutboundResponse): { ms: number; global: boolean } {
  let fromBody: number | null = null;
  let global = header(res, 'x-ratelimit-global') === 'true' || header(res, 'x-ratelimit-scope') === 'global';
  try {
    const parsed = JSON.parse(res.body) as { retry_after?: unknown; global?: unknown };
    if (typeof parsed.retry_after === 'number' && parsed.retry_after >= 0) fromBody = parsed.retry_after;
    if (parsed.global === true) global = true;
  } catch {
    // Cloudflare's 429 pages are not JSON: the header tells.
  }
  const s =
    fromBody ?? seconds(header(res, 'retry-after')) ?? seconds(header(res, 'x-ratelimit-reset-after')) ?? 1;
  return { ms: Math.ceil(s * 1000), global };
}

/** The outcome of an answer (`attempts`: how many were made before this one). */
export function outcomeOf(res: OutboundResponse, attempts: number, random?: () => number): DeliveryOutcome {
  const { status } = res;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 429) {
    // Waiting out a rate limit is not the delivery's fault: it does not count as an attempt.
    return {
      kind: 'retry',
      afterMs: retryAfterOf(res).ms,
      error: describe(res),
      attempt: false,
      rateLimited: true,
    };
  }
  // Discord counts 401, 403 and 429 answers toward its ban (10,000 in 10 minutes): a webhook that
  // refuses us is not asked again until the operator has looked.
  if (status === 404) return { kind: 'disable', reason: 'Unknown Webhook (404)', error: describe(res) };
  if (status === 401) return { kind: 'disable', reason: 'Unauthorized (401)', error: describe(res) };
  if (status === 403) return { kind: 'disable', reason: 'Forbidden (403)', error: describe(res) };
  if (status >= 500) {
    return {
      kind: 'retry',
      afterMs: backoffMs(attempts, random),
      error: describe(res),
      attempt: true,
      down: status >= 502 && status <= 504,
    };
  }
  // Other 4xx, and 3xx (no redirect is followed) and anything else: this post will not be accepted.
  return { kind: 'fail', error: describe(res) };
}

/**
 * The outcome of a request that got no answer (refused, reset, timed out). `timedOut`: the request
 * was sent and nothing came back in time (it may have been taken), unlike a connection refused.
 */
export function networkOutcome(
  error: unknown,
  attempts: number,
  random?: () => number,
  timedOut = false,
): DeliveryOutcome {
  const text = error instanceof Error ? error.message : String(error);
  return {
    kind: 'retry',
    afterMs: backoffMs(attempts, random),
    error: `Network: ${text}`.slice(0, 300),
    attempt: true,
    down: !timedOut,
  };
}

/**
 * Per-bucket and global waits. A bucket is Discord's X-RateLimit-Bucket together with the route's
 * major parameter (the webhook id), so the same hash on two webhooks is two buckets: the webhook
 * URL is the key (we post to one route per webhook).
 */
export class RateLimiter {
  private readonly blockedUntil = new Map<string, number>();
  /** The bucket's X-RateLimit-Remaining as last answered (how many posts may go at once). */
  private readonly remainingOf = new Map<string, number>();
  private globalUntil = 0;

  constructor(private readonly now: () => number) {}

  /** Milliseconds to wait before the next request to this route (0: go). */
  waitMs(route: string): number {
    const until = Math.max(this.globalUntil, this.blockedUntil.get(route) ?? 0);
    return Math.max(0, until - this.now());
  }

  /** Learns from an answer to this route. */
  observe(route: string, res: OutboundResponse): void {
    const now = this.now();
    if (res.status === 429) {
      const { ms, global } = retryAfterOf(res);
      if (global) this.globalUntil = Math.max(this.globalUntil, now + ms);
      else this.blockedUntil.set(route, Math.max(this.blockedUntil.get(route) ?? 0, now + ms));
      return;
    }
    const remaining = seconds(header(res, 'x-ratelimit-remaining'));
    const resetAfter = seconds(header(res, 'x-ratelimit-reset-after'));
    if (remaining !== null) this.remainingOf.set(route, remaining);
    if (remaining === 0 && resetAfter !== null) {
      this.blockedUntil.set(route, now + Math.ceil(resetAfter * 1000));
    } else if (remaining !== null && remaining > 0) {
      this.blockedUntil.delete(route);
    }
  }

  /** Requests the route's bucket had left at its last answer; null when it does not say. */
  remaining(route: string): number | null {
    return this.remainingOf.get(route) ?? null;
  }

  /** Holds a route back until `until` (its lane backs off after repeated 429s). */
  holdOff(route: string, until: number): void {
    this.blockedUntil.set(route, Math.max(this.blockedUntil.get(route) ?? 0, until));
  }

  /** Forgets a route (its destination was removed or disabled). */
  forget(route: string): void {
    this.blockedUntil.delete(route);
    this.remainingOf.delete(route);
  }
}
