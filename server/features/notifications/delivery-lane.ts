import type { Db } from '../../db/index.ts';
import { type Attempted, attempt, type Post, type PostTiming, postsFor } from './destination-posts.ts';
import { ageText } from './discord-message.ts';
import {
  disableDestination,
  dropStaleDeliveries,
  type LaneDelivery,
  type LaneDestination,
  markDeliveriesFailed,
  markDeliveriesSent,
  scheduleDeliveryRetry,
  selectLaneDeliveries,
} from './dispatcher.store.ts';
import { type OutboundPolicy, sendOutbound } from './outbound-request.ts';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  GIVE_UP_AFTER_MS,
  MAX_ATTEMPTS,
  type RateLimiter,
} from './rate-limits.ts';
import { WakeableSleep } from './wakeable-sleep.ts';

/*
 * One destination's lane: its own loop, queue (its due outbox rows, dearest first) and concurrency,
 * so a slow or dead destination delays only itself. A lane drops (or marks) finds past the
 * destination's maximum age, backs off after failures (and after repeated 429s), and while the
 * destination looks down it probes it every second, so it catches up as soon as it answers again.
 */

/** Rows a lane takes per turn. */
export const LANE_BATCH = 50;
/**
 * Posts in flight at once: Discord keeps the order (and one webhook's bucket); a JSON endpoint 4,
 * but alerts one at a time (in order) wherever they go.
 */
export const LANE_CONCURRENCY = { discord: 1, json: 4, alerts: 1 } as const;
/** How often a lane asks a destination that looked down whether it answers again. */
export const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 2_000;
/** 429s in a row a lane takes as they come; from then on it backs off beyond what they ask. */
export const RATE_LIMITS_BEFORE_BACKOFF = 3;

export interface LaneLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the dispatcher gives each lane. */
export interface LaneContext {
  db: Db;
  clock: () => number;
  logger: LaneLogger;
  policy: OutboundPolicy;
  joinUrlTemplate: string | null;
  limits: RateLimiter;
  timing: PostTiming;
  pollMs: number;
  /** Whether this instance holds the lease long enough for a post and its one repeat. */
  mayPost: () => boolean;
  /** The lane's destination was turned off (404, 401, 403, a URL the rules now refuse). */
  onDisabled: (destinationId: number) => void;
  /** Counts the rows a post settled (the log's minute summary, /metrics). */
  onSettled: (outcome: 'sent' | 'failed' | 'retried', rows: number) => void;
}

/** Exponential backoff with equal jitter: in [½, 1) of min(cap, base·2^n), never next to nothing. */
function laneBackoffMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures));
  return Math.floor(ceiling * (0.5 + random() / 2));
}

export class DeliveryLane {
  private running = true;
  /** Failed posts in a row (5xx, no answer), and 429s in a row. */
  private failures = 0;
  private rateLimited = 0;
  private backoffUntil = 0;
  /** The destination looked down (refused, reset, 502-504): posts wait until a probe gets an answer. */
  private probing = false;
  private nextProbeAt = 0;
  private readonly sleeper = new WakeableSleep();
  private readonly loop: Promise<void>;

  constructor(
    private readonly ctx: LaneContext,
    private destination: LaneDestination,
  ) {
    this.loop = this.run();
  }

  /** New settings of the same destination (a new URL starts afresh). */
  update(destination: LaneDestination): void {
    if (destination.url !== this.destination.url) {
      this.failures = 0;
      this.rateLimited = 0;
      this.backoffUntil = 0;
      this.probing = false;
    }
    this.destination = destination;
  }

  /** Looks for due rows now (a find was written). */
  wake(): void {
    this.sleeper.wake();
  }

  /** Ends the loop after the post in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.sleeper.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pause = this.ctx.pollMs;
      try {
        pause = await this.turn();
      } catch (error) {
        // The database is away for a moment: try again shortly.
        this.ctx.logger.error(
          { err: error, destinationId: this.destination.id },
          'notifications: lane turn failed',
        );
        pause = 1_000;
      }
      if (pause > 0 && this.running) await this.sleeper.sleep(pause);
    }
  }

  /** One turn: drop what is too old, wait out a backoff (probing), post what is due. The pause after. */
  private async turn(): Promise<number> {
    const { ctx } = this;
    const dest = this.destination;
    if (!ctx.mayPost()) return ctx.pollMs;
    const now = ctx.clock();
    // Alerts have no maximum age: a late "Fleet down" is still news.
    if (dest.lateMode === 'drop' && !dest.alerts) {
      const reason = `Older than the maximum age (${ageText(dest.maxAgeMs / 1000)}) when it could be posted`;
      const dropped = await dropStaleDeliveries(ctx.db, dest.id, now - dest.maxAgeMs, reason);
      if (dropped > 0)
        ctx.logger.info({ destinationId: dest.id, dropped }, 'notifications: dropped late finds');
    }
    if (this.probing) {
      // Down: only a probe says when to post again (a post now would only spend the finds' attempts).
      if (now < this.nextProbeAt) return this.nextProbeAt - now;
      this.nextProbeAt = now + PROBE_EVERY_MS;
      if (!(await this.answersAgain())) return PROBE_EVERY_MS;
      ctx.logger.info({ destinationId: dest.id }, 'notifications: destination answers again');
      this.backoffUntil = 0;
      this.probing = false;
    }
    const wait = Math.max(this.backoffUntil - now, ctx.limits.waitMs(dest.url));
    if (wait > 0) return wait;
    const rows = await selectLaneDeliveries(ctx.db, dest, now, LANE_BATCH);
    if (rows.length === 0) return ctx.pollMs;
    let posts: Post[];
    try {
      posts = postsFor(dest, rows, ctx.joinUrlTemplate, now);
    } catch {
      // A payload that is not JSON cannot be posted ever.
      await markDeliveriesFailed(
        ctx.db,
        rows.map((r) => r.id),
        dest.alerts ? 'The stored alert is not readable' : 'The stored find is not readable',
      );
      return 0;
    }
    const concurrency = dest.alerts
      ? LANE_CONCURRENCY.alerts
      : dest.kind === 'discord'
        ? LANE_CONCURRENCY.discord
        : LANE_CONCURRENCY.json;
    for (let i = 0; i < posts.length; ) {
      if (!this.running || !ctx.mayPost() || ctx.limits.waitMs(dest.url) > 0) return 0;
      // No more at once than the bucket has left (an endpoint that sends Discord's headers).
      const width = Math.max(1, Math.min(concurrency, ctx.limits.remaining(dest.url) ?? concurrency));
      const accepted = await Promise.all(posts.slice(i, i + width).map((post) => this.send(dest, post)));
      if (accepted.includes(false)) return 0;
      i += width;
    }
    return rows.length >= LANE_BATCH ? 0 : ctx.pollMs;
  }

  /** Whether the destination answers at all now: a GET (Discord: the webhook object, no message). */
  private async answersAgain(): Promise<boolean> {
    const dest = this.destination;
    try {
      const res = await sendOutbound(
        dest.url,
        { method: 'GET', timeoutMs: PROBE_TIMEOUT_MS },
        this.ctx.policy,
        dest.kind === 'discord' ? 'discord' : 'json',
      );
      return res.status < 502 || res.status > 504;
    } catch {
      return false;
    }
  }

  /**
   * Posts once; a post that got no answer at all (not even late) is made once more at once with the
   * same payload and key, and only then counts as failed. True when the lane may go on.
   */
  private async send(dest: LaneDestination, post: Post): Promise<boolean> {
    const { ctx } = this;
    const attempts = Math.max(...post.rows.map((r) => r.attempts));
    const tryOnce = () => attempt(dest, post, ctx.policy, attempts, ctx.limits, ctx.timing);
    let result = await tryOnce();
    if (result.timedOut && this.running && ctx.mayPost()) result = await tryOnce();
    if (result.late)
      ctx.logger.warn({ destinationId: dest.id }, 'notifications: the destination answered late');
    return this.apply(dest, post.rows, result);
  }

  private async apply(dest: LaneDestination, rows: LaneDelivery[], result: Attempted): Promise<boolean> {
    const { ctx } = this;
    const { outcome } = result;
    const ids = rows.map((r) => r.id);
    const now = ctx.clock();
    switch (outcome.kind) {
      case 'sent':
        await markDeliveriesSent(ctx.db, ids, now, result.remoteId);
        ctx.onSettled('sent', ids.length);
        this.failures = 0;
        this.rateLimited = 0;
        this.probing = false;
        return true;
      case 'retry': {
        if (outcome.rateLimited) {
          this.rateLimited += 1;
          const over = this.rateLimited - RATE_LIMITS_BEFORE_BACKOFF;
          if (over >= 0) {
            this.backoffUntil = Math.max(
              this.backoffUntil,
              now + Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** over),
            );
            // Send test waits for it too.
            ctx.limits.holdOff(dest.url, this.backoffUntil);
          }
        } else {
          this.backoffUntil = now + laneBackoffMs(this.failures);
          this.failures += 1;
          this.probing = outcome.down === true;
          this.nextProbeAt = now + PROBE_EVERY_MS;
        }
        // The rows stay due: the lane, not each row, waits (so it catches up at once when it may).
        await scheduleDeliveryRetry(ctx.db, ids, now, {
          afterMs: 0,
          error: outcome.error,
          countAttempt: outcome.attempt,
          maxAttempts: MAX_ATTEMPTS,
          giveUpAfterMs: GIVE_UP_AFTER_MS,
        });
        ctx.onSettled('retried', ids.length);
        return false;
      }
      case 'disable':
        ctx.logger.warn(
          { destinationId: dest.id, reason: outcome.reason },
          'notifications: destination disabled',
        );
        await disableDestination(ctx.db, dest.id, outcome.reason, now, ids, outcome.error);
        ctx.onSettled('failed', ids.length);
        ctx.limits.forget(dest.url);
        this.running = false;
        ctx.onDisabled(dest.id);
        return false;
      case 'fail':
        await markDeliveriesFailed(ctx.db, ids, outcome.error);
        ctx.onSettled('failed', ids.length);
        return true;
    }
  }
}
