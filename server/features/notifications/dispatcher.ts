import type { Db, DialectName } from '../../db/index.ts';
import { acquireLease, releaseLease } from '../../db/leases.ts';
import { attempt, type Destination, type Post, postsFor } from './destination-posts.ts';
import {
  type DueDelivery,
  disableDestination,
  markDeliveriesFailed,
  markDeliveriesSent,
  scheduleDeliveryRetry,
  selectDueDeliveries,
} from './dispatcher.store.ts';
import { type OutboundKind, type OutboundPolicy, REQUEST_TIMEOUT_MS } from './outbound-request.ts';
import { type DeliveryOutcome, GIVE_UP_AFTER_MS, MAX_ATTEMPTS, RateLimiter } from './rate-limits.ts';

/*
 * The one sender of the cluster: whoever holds the lease row posts the due outbox rows, grouped per
 * destination (Discord: a burst folded into few messages), and marks each message's rows sent right
 * after its 2xx. A crash between a post and its mark can repeat that one message, nothing more.
 */

export const LEASE_NAME = 'notifications-dispatcher';
/** How long a lease lasts unless renewed: well above a request's 5 s, so a holder renews in time. */
export const LEASE_TTL_MS = 15_000;
/** How often an idle dispatcher looks for due rows: the floor of the find-to-post time. */
export const POLL_MS = 100;
/** How often a non-holder tries for the lease. */
const STANDBY_MS = 1_000;
/** Rows taken per round. */
const BATCH = 200;

export interface DispatcherLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface DispatcherOptions {
  db: Db;
  dialect?: DialectName;
  /** Epoch milliseconds. */
  clock: () => number;
  logger: DispatcherLogger;
  policy: OutboundPolicy;
  joinUrlTemplate: string | null;
  /** Names this instance in the lease row. */
  instanceId: string;
  /** For tests: the idle poll (default POLL_MS). */
  pollMs?: number;
}

export interface NotificationDispatcher {
  /** Looks for due rows now (after an outbox write) rather than at the next poll. */
  wake(): void;
  /** Ends the loop after the post in flight, and gives the lease up. */
  stop(): Promise<void>;
}

export function startNotificationDispatcher(options: DispatcherOptions): NotificationDispatcher {
  const { db, clock, logger, policy, joinUrlTemplate, instanceId } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const limits = new RateLimiter(clock);
  /** Destinations held back after a 5xx or network error, until this time. */
  const backedOff = new Map<number, number>();
  /** The URL of each destination seen, to ask the rate limiter about it before reading its rows. */
  const urlOf = new Map<number, string>();
  let leaseUntil = 0;
  let running = true;
  let wakeUp: (() => void) | null = null;
  let wokenEarly = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wokenEarly || !running) {
        wokenEarly = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  /** Holds the lease for at least the next request (renewing it), or says we do not. */
  async function holdLease(): Promise<boolean> {
    const now = clock();
    if (leaseUntil - now > REQUEST_TIMEOUT_MS + 2_000) return true;
    const held = await acquireLease(db, LEASE_NAME, instanceId, now, LEASE_TTL_MS);
    const wasHolding = leaseUntil > now;
    leaseUntil = held ? now + LEASE_TTL_MS : 0;
    if (held && !wasHolding) logger.info({ instanceId }, 'notifications: dispatching for the cluster');
    return held;
  }

  async function apply(
    destination: Destination,
    rows: DueDelivery[],
    outcome: DeliveryOutcome,
  ): Promise<boolean> {
    const ids = rows.map((r) => r.id);
    const now = clock();
    switch (outcome.kind) {
      case 'sent':
        await markDeliveriesSent(db, ids, now);
        backedOff.delete(destination.id);
        return true;
      case 'retry': {
        if (outcome.attempt) {
          backedOff.set(destination.id, now + outcome.afterMs);
        }
        await scheduleDeliveryRetry(db, ids, now, {
          afterMs: outcome.afterMs,
          error: outcome.error,
          countAttempt: outcome.attempt,
          maxAttempts: MAX_ATTEMPTS,
          giveUpAfterMs: GIVE_UP_AFTER_MS,
        });
        return false;
      }
      case 'disable':
        logger.warn(
          { destinationId: destination.id, reason: outcome.reason },
          'notifications: destination disabled',
        );
        await disableDestination(db, destination.id, outcome.reason, now, ids, outcome.error);
        limits.forget(destination.url);
        return false;
      case 'fail':
        await markDeliveriesFailed(db, ids, outcome.error);
        return true;
    }
  }

  /** Posts a destination's due rows in order; stops at the first post that is not accepted. */
  async function sendTo(destination: Destination, rows: DueDelivery[]): Promise<void> {
    let posts: Post[];
    try {
      posts = postsFor(destination, rows, joinUrlTemplate);
    } catch {
      // A payload that is not JSON cannot be posted ever.
      await markDeliveriesFailed(
        db,
        rows.map((r) => r.id),
        'The stored find is not readable',
      );
      return;
    }
    const kind: OutboundKind = destination.kind === 'discord' ? 'discord' : 'json';
    for (const post of posts) {
      if (!running) return;
      if (limits.waitMs(destination.url) > 0) return;
      if (!(await holdLease())) return;
      const attempts = Math.max(...post.rows.map((r) => r.attempts));
      const { outcome } = await attempt(destination.url, kind, post.body, policy, attempts, limits);
      if (!(await apply(destination, post.rows, outcome))) return;
    }
  }

  async function round(): Promise<number> {
    if (!(await holdLease())) return STANDBY_MS;
    const now = clock();
    const waiting = (id: number) => (backedOff.get(id) ?? 0) > now || limits.waitMs(urlOf.get(id) ?? '') > 0;
    const skip = [...urlOf.keys()].filter(waiting);
    const due = await selectDueDeliveries(db, now, BATCH, skip);
    const groups = new Map<number, { destination: Destination; rows: DueDelivery[] }>();
    for (const row of due) {
      urlOf.set(row.destinationId, row.destination.url);
      if (waiting(row.destinationId)) continue;
      const group = groups.get(row.destinationId) ?? { destination: row.destination, rows: [] };
      group.rows.push(row);
      groups.set(row.destinationId, group);
    }
    if (groups.size === 0) return pollMs;
    await Promise.all([...groups.values()].map((g) => sendTo(g.destination, g.rows)));
    // A full batch may have more behind it: go again at once.
    return due.length >= BATCH ? 0 : pollMs;
  }

  const loop = (async () => {
    while (running) {
      let pause = pollMs;
      try {
        pause = await round();
      } catch (error) {
        // The database is away for a moment: keep the lease logic honest and try again.
        leaseUntil = 0;
        logger.error({ err: error }, 'notifications: dispatch round failed');
        pause = STANDBY_MS;
      }
      if (pause > 0) await sleep(pause);
    }
    if (leaseUntil > clock()) {
      await releaseLease(db, LEASE_NAME, instanceId).catch(() => {});
    }
  })();

  return {
    wake() {
      if (wakeUp) wakeUp();
      else wokenEarly = true;
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
  };
}
