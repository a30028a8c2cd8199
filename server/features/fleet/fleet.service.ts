import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { BotMessageType, FleetBackfillPayload } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { BatchWriter } from '../../db/batch-writer.ts';
import {
  backfillOf,
  type DiscoveryStream,
  discoveryStream,
  eventsAfter,
  seedFromDatabase,
} from './fleet-backfill.ts';
import { type BusFleetMessage, FLEET_CHANNEL } from './fleet-bus.ts';
import type { Payload } from './fleet-changes.ts';
import { type BotMessageResult, FleetIngest } from './fleet-ingest.ts';
import { FleetLive } from './fleet-live.ts';
import { maxFleetSeq } from './fleet-load.store.ts';
import { FleetOutbox } from './fleet-outbox.ts';
import { type DiscoveryCompanion, FleetPersistence } from './fleet-persistence.ts';
import type { FleetEventWithSeq } from './fleet-records.ts';
import { createRecentPets, createSeqCounter, type RecentPets, type SeqCounter } from './fleet-sequence.ts';
import { FleetState } from './fleet-state.ts';
import { FleetWatch } from './fleet-watch.ts';

// What other features import from here, wherever it is kept.
export type { DiscoveryStream } from './fleet-backfill.ts';
export { FLEET_CHANNEL } from './fleet-bus.ts';
export type { BotMessageResult } from './fleet-ingest.ts';
export type { DiscoveryCompanion } from './fleet-persistence.ts';
export type { FleetEventWithSeq } from './fleet-records.ts';
export { DISCOVERY_DEDUPE_MS } from './fleet-sequence.ts';
export { FLEET_TEXTS } from './fleet-texts.ts';

export const FLEET_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Flags a bot `error` with a reason, on every instance (the server pool calls it when a bot fails
 * on server after server). It stays `error` until the bot hops successfully or says hello again.
 */
export async function markBotError(ctx: AppContext, ghostId: string, reason: string): Promise<void> {
  await ctx.services.fleet.markBotError(ghostId, reason);
}

/** When the bot last sent anything (epoch ms), or null for a bot the fleet does not know. */
export function lastActivityOf(ctx: AppContext, ghostId: string): number | null {
  return ctx.services.fleet.lastActivityOf(ghostId);
}

/**
 * The fleet core, composed of its parts: ingest (bot messages in, deduped and given their stream
 * position `seq`), live (this instance's changes and the others' applied to its state, listeners
 * told), the outbox (this instance's changes to the others, coalesced), watch (the others' hops
 * one by one while it has dashboards), persistence (rows through the shared batched writer,
 * retention) and backfill (seeding at start, dashboards' and the feed's catch-up reads).
 */
export class Fleet {
  readonly state: FleetState;
  readonly discoveries: DiscoveryStream;
  private readonly redis: Redis | undefined;
  private counter: SeqCounter | undefined;
  private readonly recentPets: RecentPets;
  private readonly persistence: FleetPersistence;
  private readonly live: FleetLive;
  private readonly outbox: FleetOutbox;
  private readonly watcher: FleetWatch;
  private readonly ingest: FleetIngest;
  private readonly unsubscribes: Array<() => void> = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    writer: BatchWriter,
  ) {
    this.state = new FleetState(ctx.config.FLEET_INACTIVE_AFTER_MS, ctx.config.FLEET_RETENTION_DAYS);
    // The bus's command connection (one Redis connection pair for the whole app), when it has one.
    this.redis = ctx.bus.commands;
    this.recentPets = createRecentPets(this.redis, ctx.config.REDIS_KEY_PREFIX);
    this.persistence = new FleetPersistence(ctx, log, writer, this.state);
    this.outbox = new FleetOutbox(ctx, log, this.state);
    this.live = new FleetLive(ctx, log, this.state, this.persistence, this.outbox);
    this.watcher = new FleetWatch(ctx, log, this.state, this.live, this.persistence);
    const nextSeq = () => this.nextSeq();
    this.ingest = new FleetIngest(
      ctx,
      log,
      this.state,
      this.live,
      this.persistence,
      this.recentPets,
      nextSeq,
      this.outbox,
    );
    this.discoveries = discoveryStream(this.state, (listener) => this.onEvent(listener));
  }

  /** Loads what the database knows and joins the bus. */
  async start(): Promise<void> {
    const seed = await seedFromDatabase(this.ctx, this.state);
    this.counter = await createSeqCounter(this.redis, seed, this.ctx.config.REDIS_KEY_PREFIX, {
      // Every position handed out that this instance heard of (its own, the others' `changes`)...
      known: () => Math.max(this.state.head, this.live.othersHead),
      // ...and, when Redis lost the counter, every one written.
      written: () => maxFleetSeq(this.ctx.db),
    });
    this.live.start(this.counter.current);
    this.unsubscribes.push(this.ctx.bus.subscribe(FLEET_CHANNEL, (message) => this.live.apply(message)));
    this.watcher.start();
    // Redis was away: the others may have lost this instance's changes, and it theirs.
    this.unsubscribes.push(
      this.ctx.bus.onResync(() => {
        this.outbox.resend();
        this.persistence.recountTotals();
      }),
    );
  }

  async close(): Promise<void> {
    this.live.close();
    this.watcher.close();
    await this.outbox.close();
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await this.flush().catch((err: unknown) => this.log.error({ err }, 'fleet writes lost at shutdown'));
    await this.counter?.close();
    await this.recentPets.close();
  }

  /* ---------- bot messages ---------- */

  /** Whether the fleet holds `ghostId` (it said hello and was not removed or forgotten since). */
  holds(ghostId: string): boolean {
    return this.state.scanners.has(ghostId);
  }

  /** Whether `ghostId` may join: a known or enrolled bot always may (FleetIngest.hasRoomFor). */
  hasRoomFor(ghostId: string): boolean {
    return this.ingest.hasRoomFor(ghostId);
  }

  /**
   * Applies one message now (its events reach listeners at once); `settled` is its answer once its
   * rows are committed. For a socket, which must not hold a bot's next frame for a commit. With
   * `acknowledged` false (a frame without an id, which no answer can name) its rows are written
   * with the next batch, within a second, and `settled` does not wait for them.
   */
  begin<T extends BotMessageType>(
    ghostId: string,
    type: T,
    payload: Payload<T>,
    acknowledged = true,
  ): Promise<{ result: BotMessageResult; settled: Promise<BotMessageResult> }> {
    return this.ingest.begin(ghostId, type, payload, acknowledged);
  }

  /**
   * Applies a bot's messages in order (stopping at the first refused one) and answers once all
   * their rows are committed: one batch costs one commit, not one per message.
   */
  acceptAll(
    ghostId: string,
    messages: Array<{ type: BotMessageType; payload: unknown }>,
  ): Promise<{ results: BotMessageResult[]; refused?: { index: number; result: BotMessageResult } }> {
    return this.ingest.acceptAll(ghostId, messages);
  }

  private nextSeq(): Promise<number> {
    if (!this.counter) throw new Error('the fleet has not started');
    return this.counter.next();
  }

  /* ---------- what other features call ---------- */

  markBotError(ghostId: string, reason: string): Promise<void> {
    return this.ingest.markBotError(ghostId, reason);
  }

  /**
   * Removes a bot from the fleet on every instance (fleet-removal.service.ts does the rest): gone from
   * this state at once, so the writer no longer writes its row; then what was queued is written, so no
   * batch committed later brings the row back. Returns whether this instance held it.
   */
  async forget(ghostId: string): Promise<boolean> {
    const at = this.ctx.now();
    const held = this.live.forgetHere(ghostId, at);
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'removed', ghostId, at } satisfies BusFleetMessage);
    await this.flush();
    return held;
  }

  /** Runs `listener` on this instance when `ghostId` is removed (on any instance). Returns unsubscribe. */
  onRemoved(ghostId: string, listener: () => void): () => void {
    return this.live.onRemoved(ghostId, listener);
  }

  lastActivityOf(ghostId: string): number | null {
    return this.state.scanners.get(ghostId)?.lastActivity ?? null;
  }

  /**
   * A dashboard that needs every instance's events: `ready` is null when this instance has them
   * all, else resolves once it has (fleet-watch.ts). Call `release` when it leaves.
   */
  watch(): { ready: Promise<void> | null; release: () => void } {
    return this.watcher.watch();
  }

  /**
   * Every discovery (from any instance) and hop as this instance applies it, after the state has it:
   * its own hops, and the others' while it has dashboards (fleet-watch.ts).
   */
  onEvent(listener: (event: FleetEventWithSeq) => void): () => void {
    return this.live.onEvent(listener);
  }

  /** Called at most every 250 ms after scanners or statistics changed. */
  onStateChange(listener: () => void): () => void {
    return this.live.onStateChange(listener);
  }

  /** The whole picture for a dashboard: scanners, stats and the latest events. */
  backfill(reset: boolean): FleetBackfillPayload {
    return backfillOf(this.state, this.ctx.now(), reset);
  }

  /** The events after `since`, oldest first; null when some of them are no longer kept (or `since` is ahead). */
  eventsAfter(since: number): FleetEventWithSeq[] | null {
    return eventsAfter(this.state, since);
  }

  /* ---------- persistence ---------- */

  /** Whether `events` more bot events fit in the writer now (it is bounded while the database is behind or away). */
  hasRoomForEvents(events: number): boolean {
    return this.persistence.hasRoomFor(events);
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.persistence.flush();
  }

  /**
   * Writes `companion`'s rows with every batch of discoveries, in the transaction that stores them:
   * how a feature above the fleet (notifications' outbox) joins the write without the fleet knowing it.
   */
  alsoWriteWithDiscoveries(companion: DiscoveryCompanion): void {
    this.persistence.alsoWriteWithDiscoveries(companion);
  }

  /**
   * Deletes hops and discoveries older than FLEET_RETENTION_DAYS, batch by batch, and tells every
   * instance to forget them too; returns how many rows went.
   */
  prune(stopped: () => boolean = () => false): Promise<number> {
    return this.persistence.prune(stopped);
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The fleet core: live state, the event stream (`fleet.discoveries` for the feed), bot messages. */
    fleet: Fleet;
  }
}
