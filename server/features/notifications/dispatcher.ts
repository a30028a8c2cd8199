import type { Db, DialectName } from '../../db/index.ts';
import { acquireLease, releaseLease } from '../../db/leases.ts';
import { DeliveryLane, type LaneContext, type LaneLogger } from './delivery-lane.ts';
import { DEFAULT_TIMING, type PostTiming } from './destination-posts.ts';
import { listLaneDestinations } from './dispatcher.store.ts';
import type { OutboundPolicy } from './outbound-request.ts';
import { RateLimiter } from './rate-limits.ts';
import { WakeableSleep } from './wakeable-sleep.ts';

/*
 * The one sender of the cluster: whoever holds the lease row runs a lane per enabled destination
 * (delivery-lane.ts), each with its own queue and concurrency, so a slow or dead destination delays
 * only itself. Each message's rows are marked sent right after its 2xx: a crash between a post and
 * its mark can repeat that one message, nothing more.
 */

export const LEASE_NAME = 'notifications-dispatcher';
/** How long a lease lasts unless renewed: above a post and its one repeat, so a holder renews in time. */
export const LEASE_TTL_MS = 30_000;
/** The holder renews its lease this often. */
const RENEW_EVERY_MS = 5_000;
/** How often an idle lane looks for due rows: the floor of the find-to-post time. */
export const POLL_MS = 100;
/** How often the holder reloads the destinations (a new one gets its lane within this). */
const REFRESH_MS = 1_000;
/** How often a non-holder tries for the lease. */
const STANDBY_MS = 1_000;

export type DispatcherLogger = LaneLogger;

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
  /** The process's limiter, shared with Send test (a fresh one when not given). */
  limits?: RateLimiter;
  /** Told of the rows each post settled (the metrics' count); nothing by default. */
  onSettled?: LaneContext['onSettled'];
  /** For tests: the idle poll (default POLL_MS). */
  pollMs?: number;
  /** For tests: how long a post waits for its answer in time, and at most for a late one. */
  answerTimeoutMs?: number;
  lateAnswerMs?: number;
}

export interface NotificationDispatcher {
  /** Looks for due rows now (after an outbox write) rather than at the next poll. */
  wake(): void;
  /** Ends the lanes after the posts in flight, and gives the lease up. */
  stop(): Promise<void>;
}

export function startNotificationDispatcher(options: DispatcherOptions): NotificationDispatcher {
  const { db, clock, logger, instanceId } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const timing: PostTiming = {
    answerMs: options.answerTimeoutMs ?? DEFAULT_TIMING.answerMs,
    lateMs: options.lateAnswerMs ?? DEFAULT_TIMING.lateMs,
  };
  /** Lease left that a post (and its one repeat) needs before it starts. */
  const postBudgetMs = 2 * Math.max(timing.answerMs, timing.lateMs) + 2_000;
  const lanes = new Map<number, DeliveryLane>();
  const sleeper = new WakeableSleep();
  let leaseUntil = 0;
  let renewedAt = 0;
  let running = true;

  const laneContext: LaneContext = {
    db,
    clock,
    logger,
    policy: options.policy,
    joinUrlTemplate: options.joinUrlTemplate,
    limits: options.limits ?? new RateLimiter(clock),
    timing,
    pollMs,
    mayPost: () => running && leaseUntil - clock() > postBudgetMs,
    onDisabled: (id) => lanes.delete(id),
    onSettled: options.onSettled ?? (() => {}),
  };

  /** Holds the lease (renewing it every RENEW_EVERY_MS), or says we do not. */
  async function holdLease(): Promise<boolean> {
    const now = clock();
    if (leaseUntil > now && now - renewedAt < RENEW_EVERY_MS) return true;
    const held = await acquireLease(db, LEASE_NAME, instanceId, now, LEASE_TTL_MS);
    const wasHolding = leaseUntil > now;
    leaseUntil = held ? now + LEASE_TTL_MS : 0;
    renewedAt = now;
    if (held && !wasHolding) logger.info({ instanceId }, 'notifications: dispatching for the cluster');
    return held;
  }

  /** One lane per enabled destination: new ones started, changed ones told, gone ones stopped. */
  async function refreshLanes(): Promise<void> {
    const destinations = await listLaneDestinations(db);
    const seen = new Set<number>();
    for (const destination of destinations) {
      seen.add(destination.id);
      const lane = lanes.get(destination.id);
      if (lane) lane.update(destination);
      else lanes.set(destination.id, new DeliveryLane(laneContext, destination));
    }
    for (const [id, lane] of lanes) {
      if (seen.has(id)) continue;
      lanes.delete(id);
      void lane.stop();
    }
  }

  const loop = (async () => {
    while (running) {
      let pause = REFRESH_MS;
      try {
        if (await holdLease()) await refreshLanes();
        else pause = STANDBY_MS;
      } catch (error) {
        // The database is away for a moment: the lanes stop posting as the lease runs out.
        logger.error({ err: error }, 'notifications: dispatch round failed');
        pause = STANDBY_MS;
      }
      if (running) await sleeper.sleep(pause);
    }
    await Promise.all([...lanes.values()].map((lane) => lane.stop()));
    lanes.clear();
    if (leaseUntil > clock()) {
      await releaseLease(db, LEASE_NAME, instanceId).catch(() => {});
    }
  })();

  return {
    wake() {
      for (const lane of lanes.values()) lane.wake();
      // A find for a destination that has no lane yet (just created): look again now.
      if (lanes.size === 0) sleeper.wake();
    },
    async stop() {
      running = false;
      sleeper.wake();
      await loop;
    },
  };
}
