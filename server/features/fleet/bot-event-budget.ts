import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';

/*
 * Each bot's budget of events: POST /api/bot/events and the bot socket draw from the same token
 * bucket per ghostId, refilled at RATE_LIMIT_BOT_EVENTS per second and holding at most
 * RATE_LIMIT_BOT_EVENTS_BURST (default ten times the rate). Each instance counts on its own, as the
 * other rate limits do.
 */

/** What `take` answers: the events may go ahead, or when to try again. */
export type BudgetAnswer =
  | { ok: true }
  | {
      ok: false;
      /** Milliseconds until the bucket holds enough for the same request. */
      retryAfterMs: number;
      /** The request asks for more than the bucket can ever hold: it never passes, whatever the wait. */
      neverFits: boolean;
    };

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (epoch ms). */
  at: number;
}

export interface BotEventBudgetOptions {
  /** Most bots with a bucket that is not full at once; past it the least recently refilled is forgotten. */
  maxBots?: number;
  /** Full buckets are forgotten at most this often, on the next take. */
  sweepEveryMs?: number;
}

/**
 * A token bucket per bot. A bot with no bucket has a full one, so full buckets are forgotten
 * (swept) and memory holds only bots that spent part of their budget lately.
 *
 *     const budget = new BotEventBudget(50, 500);
 *     const answer = budget.take('ghost-1', events.length, ctx.now());
 *     if (!answer.ok) reply.header('retry-after', …)
 */
export class BotEventBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly maxBots: number;
  private readonly sweepEveryMs: number;
  private nextSweepAt = 0;

  constructor(
    /** Tokens added per second. */
    readonly ratePerSecond: number,
    /** Tokens a bucket holds at most: the largest burst a bot may send at once. */
    readonly burst: number,
    options: BotEventBudgetOptions = {},
  ) {
    this.perMs = ratePerSecond / 1000;
    this.maxBots = options.maxBots ?? 100_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10_000;
  }

  /** Takes `n` tokens from the bot's bucket, all or none. */
  take(ghostId: string, n: number, now: number): BudgetAnswer {
    if (now >= this.nextSweepAt) this.sweep(now);
    if (n > this.burst) {
      return { ok: false, retryAfterMs: Math.ceil(this.burst / this.perMs), neverFits: true };
    }
    let bucket = this.buckets.get(ghostId);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxBots) this.forgetOldest();
      bucket = { tokens: this.burst, at: now };
    } else {
      bucket.tokens = this.refilled(bucket, now);
      bucket.at = Math.max(bucket.at, now);
      // Moved to the end, so the Map stays in order of last refill and its first entry is the oldest.
      this.buckets.delete(ghostId);
    }
    this.buckets.set(ghostId, bucket);
    if (bucket.tokens >= n) {
      bucket.tokens -= n;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((n - bucket.tokens) / this.perMs), neverFits: false };
  }

  /** Bots holding a bucket that is not known to be full (tests, status). */
  get size(): number {
    return this.buckets.size;
  }

  private refilled(bucket: Bucket, now: number): number {
    // A clock that went back adds nothing (and takes nothing).
    const elapsed = Math.max(0, now - bucket.at);
    return Math.min(this.burst, bucket.tokens + elapsed * this.perMs);
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.sweepEveryMs;
    for (const [ghostId, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.burst) this.buckets.delete(ghostId);
    }
  }

  private forgetOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}

/** The app's bot event budget (built once, in the service container), from its configuration. */
export function createBotEventBudget(config: Config): BotEventBudget {
  const rate = config.RATE_LIMIT_BOT_EVENTS;
  const burst = config.RATE_LIMIT_BOT_EVENTS_BURST ?? Math.max(1, Math.round(rate * 10));
  return new BotEventBudget(rate, burst);
}

/** Whole seconds for a Retry-After header: at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

export const BOT_EVENT_BUDGET_TEXTS = {
  /** A batch (or frame) refused for now. */
  tooMany: (ghostId: string, rate: number, burst: number, seconds: number) =>
    `Too many events from ${ghostId}: at most ${rate} a second (bursts of ${burst}); try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
  /** A batch larger than the bucket: no wait makes it pass. */
  neverFits: (n: number, burst: number) =>
    `A batch of ${n} events is more than one bot may send at once (${burst}): send at most ${burst} events per call`,
  /** A socket frame refused for now; the frame is dropped. */
  frameRefused: (ghostId: string, rate: number, seconds: number) =>
    `Frame refused: ${ghostId} is over its budget of ${rate} events a second; it was dropped, try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
} as const;

/** A refusal: Retry-After (whole seconds), the batch's `{error}` and a socket frame's `error` text. */
export interface BudgetRefusal {
  retryAfter: string;
  error: string;
  frameError: string;
}

/** Takes `n` events from the bot's budget; null when they may go ahead. */
export function refuseOverBudget(ctx: AppContext, ghostId: string, n: number): BudgetRefusal | null {
  const budget = ctx.services.botEventBudget;
  const answer = budget.take(ghostId, n, ctx.now());
  if (answer.ok) return null;
  const seconds = retryAfterSeconds(answer.retryAfterMs);
  return {
    retryAfter: String(seconds),
    error: answer.neverFits
      ? BOT_EVENT_BUDGET_TEXTS.neverFits(n, budget.burst)
      : BOT_EVENT_BUDGET_TEXTS.tooMany(ghostId, budget.ratePerSecond, budget.burst, seconds),
    frameError: BOT_EVENT_BUDGET_TEXTS.frameRefused(ghostId, budget.ratePerSecond, seconds),
  };
}

declare module '../../context.ts' {
  interface AppServices {
    /** Events per second per bot, shared by POST /api/bot/events and the bot socket. */
    botEventBudget: BotEventBudget;
  }
}
