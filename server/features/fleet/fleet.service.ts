import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type {
  BotMessageSchemas,
  BotMessageType,
  FleetBackfillPayload,
  PetDiscovery,
  ServerHopEvent,
} from '../../../common/fleet.ts';
import { parsePetValue } from '../../../common/pet-value.ts';
import type { AppContext } from '../../context.ts';
import { type BatchWriter, type RowKind, RowSetAsideError } from '../../db/batch-writer.ts';
import {
  countDiscoveriesSince,
  deleteFleetEventsBefore,
  deleteScanner,
  insertDiscoveries,
  insertHops,
  loadDiscoveryMinutesSince,
  loadHopMinutesSince,
  loadHopTotals,
  loadRecentEvents,
  loadScanners,
  maxFleetSeq,
  upsertScanners,
} from './fleet.store.ts';
import {
  BACKFILL_DISCOVERIES,
  BACKFILL_HOPS,
  EVENT_RING_SIZE,
  type FleetEvent,
  FleetState,
  type ScannerRecord,
  utcDayOf,
} from './fleet-state.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Bus channel carrying fleet changes between instances (each applies them to its own state). */
export const FLEET_CHANNEL = 'fleet';
/**
 * Through Redis, two instances' events can cross on the bus (seq 6 published before 5). An event
 * that arrives ahead of a gap waits this long for the gap to fill, so listeners get the stream in
 * seq order; a position that never comes (an instance died between INCR and publish) is skipped.
 */
const REORDER_WAIT_MS = 100;
/** Spec-free choice: the same pet (name + job id) reported again within this long is one discovery. */
export const DISCOVERY_DEDUPE_MS = MINUTE_MS;
/** Seconds a bot is told to wait when the writer is full (the database is behind or away). */
const WRITER_FULL_RETRY_SECONDS = 5;
/** Dashboards get state updates (scanners, stats) at most this often. */
const STATE_EVERY_MS = 250;
/** How often silence is checked, so a bot turning inactive reaches dashboards without any event. */
const INACTIVE_CHECK_EVERY_MS = 1000;
export const FLEET_SWEEP_EVERY_MS = HOUR_MS;
const DELETE_BATCH = 1000;

export const FLEET_TEXTS = {
  /** With the configured FLEET_MAX_BOTS. */
  full: (maxBots: number) => `The fleet is full: at most ${maxBots} scanners`,
  sayHello: 'Say hello first',
  removed: 'This bot was removed from the fleet',
  unknownBot: (ghostId: string) => `Unknown bot: ${ghostId}`,
  writerFull: `The server is behind on writing events: send them again in ${WRITER_FULL_RETRY_SECONDS} s`,
} as const;

export type FleetEventWithSeq = FleetEvent & { seq: number };

type Payload<T extends BotMessageType> = z.infer<(typeof BotMessageSchemas)[T]>;

/** What one accepted bot message did (answered once its rows are committed). */
export type BotMessageResult =
  | { ok: true; seq?: number; duplicate?: true }
  | { ok: false; status: number; error: string; retryAfterSeconds?: number };

/** The feed's view of the stream (fleet-common.md). */
export interface DiscoveryStream {
  /** Discoveries with seq > since, oldest first, at most `limit`; reset=true when `since` is older than what is kept (then the newest `limit`). */
  discoveriesAfter(
    since: number,
    limit: number,
  ): Promise<{ discoveries: PetDiscovery[]; cursor: number; reset: boolean }>;
  /** Every new discovery, on any instance (through the bus), in seq order. Returns unsubscribe. */
  onDiscovery(handler: (discovery: PetDiscovery) => void): () => void;
}

type BusFleetMessage =
  | { kind: 'hop'; hop: ServerHopEvent }
  | { kind: 'discovery'; discovery: PetDiscovery }
  | { kind: 'scanner'; scanner: ScannerRecord }
  | { kind: 'touch'; ghostId: string; at: number }
  | { kind: 'removed'; ghostId: string; at: number }
  | { kind: 'pruned'; before: number };

/** Positions in the stream: in memory (seeded from the database), or shared through Redis INCR. */
interface SeqCounter {
  next(): Promise<number>;
  /** The last position handed out, on any instance. */
  current: number;
  close(): Promise<void>;
}

/** Remembers which pets were reported lately, here or (through Redis) on any instance. */
interface RecentPets {
  /** True when this is the first report of `key` in the window (and claims it). */
  claim(key: string, now: number): Promise<boolean>;
  close(): Promise<void>;
}

const SEQ_KEY = 'scanline:fleet:seq';
const PET_KEY_PREFIX = 'scanline:fleet:pet:';

function createSeqCounter(redis: Redis | undefined, seed: number): Promise<SeqCounter> | SeqCounter {
  if (!redis) {
    const counter = { current: seed, next: async () => ++counter.current, close: async () => {} };
    return counter;
  }
  // Raise the shared counter to at least what this database holds (a fresh Redis after a restart).
  return redis
    .eval(
      "local c = tonumber(redis.call('GET', KEYS[1]) or '0') if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) c = tonumber(ARGV[1]) end return c",
      1,
      SEQ_KEY,
      String(seed),
    )
    .then((current) => ({
      current: Number(current),
      next: () => redis.incr(SEQ_KEY),
      close: async () => {},
    }));
}

function createRecentPets(redis: Redis | undefined): RecentPets {
  if (redis) {
    return {
      claim: async (key) =>
        (await redis.set(PET_KEY_PREFIX + key, '1', 'PX', DISCOVERY_DEDUPE_MS, 'NX')) === 'OK',
      close: async () => {},
    };
  }
  // Insertion order is claim order, so expired entries are at the front.
  const seen = new Map<string, number>();
  return {
    claim: async (key, now) => {
      for (const [k, expires] of seen) {
        if (expires > now) break;
        seen.delete(k);
      }
      if ((seen.get(key) ?? 0) > now) return false;
      seen.delete(key);
      seen.set(key, now + DISCOVERY_DEDUPE_MS);
      return true;
    },
    close: async () => {},
  };
}

/** Hops and discoveries, as the batched writer writes them (kinds of its rows). */
const hopRows: RowKind<ServerHopEvent> = { table: 'fleet_hops', write: insertHops };
const discoveryRows: RowKind<PetDiscovery> = { table: 'fleet_discoveries', write: insertDiscoveries };

/** What one bot message did, and the commit of its rows (when it wrote any) still to come. */
interface Applied {
  result: BotMessageResult;
  written?: Promise<void>;
}

/** The promise itself, marked as handled now: it is awaited later, after other messages were applied. */
function watched(written: Promise<void>): Promise<void> {
  written.catch(() => {});
  return written;
}

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
 * The fleet core: accepts bot messages, gives each hop and discovery its stream position (`seq`),
 * publishes every change on the bus (each instance applies it to its FleetState, then tells its
 * dashboards and feed listeners), and writes hops, discoveries and scanners in batches.
 */
export class Fleet {
  readonly state: FleetState;
  readonly discoveries: DiscoveryStream;
  private readonly redis: Redis | undefined;
  private counter: SeqCounter | undefined;
  private readonly recentPets: RecentPets;
  private readonly eventListeners = new Set<(event: FleetEventWithSeq) => void>();
  private readonly stateListeners = new Set<() => void>();
  /** Per bot: what runs on this instance when it is removed (its socket here is closed). */
  private readonly removalListeners = new Map<string, Set<() => void>>();
  private readonly unsubscribes: Array<() => void> = [];
  /**
   * Scanner rows by ghost id: one per bot while queued, written as the bot stands when the batch is
   * written (a bot removed meanwhile is not written back).
   */
  private readonly scannerRows: RowKind<string> = {
    table: 'fleet_scanners',
    keyOf: (ghostId) => ghostId,
    write: (trx, ghostIds) =>
      upsertScanners(
        trx,
        ghostIds.flatMap((id) => {
          const scanner = this.state.scanners.get(id);
          return scanner ? [scanner] : [];
        }),
      ),
  };
  private stateTimer: NodeJS.Timeout | undefined;
  private inactiveTimer: NodeJS.Timeout | undefined;
  private statusSignature = '';
  /** The highest seq handed to listeners; events after a gap wait in `early`. */
  private released = 0;
  private readonly early = new Map<number, FleetEventWithSeq>();
  private reorderTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly writer: BatchWriter,
  ) {
    this.state = new FleetState(ctx.config.FLEET_INACTIVE_AFTER_MS, ctx.config.FLEET_RETENTION_DAYS);
    // The bus's command connection (one Redis connection pair for the whole app), when it has one.
    this.redis = ctx.bus.commands;
    this.recentPets = createRecentPets(this.redis);
    this.discoveries = {
      discoveriesAfter: async (since, limit) => this.discoveriesAfter(since, limit),
      onDiscovery: (handler) =>
        this.onEvent((event) => {
          if (event.kind === 'discovery') handler(event.discovery);
        }),
    };
  }

  /** Loads what the database knows and joins the bus. */
  async start(): Promise<void> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    const today = utcDayOf(now);
    const [scanners, recent, lastHourHops, lastHourFinds, totals, petsToday, seed] = await Promise.all([
      loadScanners(db),
      loadRecentEvents(db, EVENT_RING_SIZE),
      loadHopMinutesSince(db, now - HOUR_MS),
      loadDiscoveryMinutesSince(db, now - HOUR_MS),
      loadHopTotals(db),
      countDiscoveriesSince(db, today * DAY_MS),
      maxFleetSeq(db),
    ]);
    this.state.seed({
      scanners,
      ...recent,
      lastHourHops,
      lastHourFinds,
      totals,
      petsToday: { day: today, count: petsToday },
    });
    this.counter = await createSeqCounter(this.redis, seed);
    this.released = this.counter.current;
    this.unsubscribes.push(this.ctx.bus.subscribe(FLEET_CHANNEL, (message) => this.apply(message)));
    this.statusSignature = this.statusesNow();
    this.inactiveTimer = setInterval(() => this.checkSilence(), INACTIVE_CHECK_EVERY_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    clearInterval(this.inactiveTimer);
    clearTimeout(this.stateTimer);
    clearTimeout(this.reorderTimer);
    await this.flush().catch((err: unknown) => this.log.error({ err }, 'fleet writes lost at shutdown'));
    await this.counter?.close();
    await this.recentPets.close();
  }

  /* ---------- bot messages ---------- */

  /** Whether the fleet holds `ghostId` (it said hello and was not removed or forgotten since). */
  holds(ghostId: string): boolean {
    return this.state.scanners.has(ghostId);
  }

  /** Whether `ghostId` may join (a known bot always may; a new one while there are fewer than FLEET_MAX_BOTS). */
  hasRoomFor(ghostId: string): boolean {
    return this.state.scanners.has(ghostId) || this.state.scanners.size < this.ctx.config.FLEET_MAX_BOTS;
  }

  /**
   * Applies one message now (its events reach listeners at once); `settled` is its answer once its
   * rows are committed. For a socket, which must not hold a bot's next frame for a commit. With
   * `acknowledged` false (a frame without an id, which no answer can name) its rows are written
   * with the next batch, within a second, and `settled` does not wait for them.
   */
  async begin<T extends BotMessageType>(
    ghostId: string,
    type: T,
    payload: Payload<T>,
    acknowledged = true,
  ): Promise<{ result: BotMessageResult; settled: Promise<BotMessageResult> }> {
    const applied = await this.applyMessage(ghostId, type, payload, acknowledged);
    const settled = this.settle(applied);
    settled.catch(() => {});
    return { result: applied.result, settled };
  }

  /**
   * Applies a bot's messages in order (stopping at the first refused one) and answers once all
   * their rows are committed: one batch costs one commit, not one per message.
   */
  async acceptAll(
    ghostId: string,
    messages: Array<{ type: BotMessageType; payload: unknown }>,
  ): Promise<{ results: BotMessageResult[]; refused?: { index: number; result: BotMessageResult } }> {
    const applied: Applied[] = [];
    let refused: { index: number; result: BotMessageResult } | undefined;
    for (const [index, message] of messages.entries()) {
      const next = await this.applyMessage(ghostId, message.type, message.payload as never);
      if (!next.result.ok) {
        refused = { index, result: next.result };
        break;
      }
      applied.push(next);
    }
    const results: BotMessageResult[] = [];
    for (const entry of applied) {
      const result = await this.settle(entry);
      if (!result.ok) return { results, refused: { index: results.length, result } };
      results.push(result);
    }
    return refused ? { results, refused } : { results };
  }

  /** What a message did, with the commit of its rows still to come. */
  private async applyMessage<T extends BotMessageType>(
    ghostId: string,
    type: T,
    payload: Payload<T>,
    acknowledged = true,
  ): Promise<Applied> {
    const now = this.ctx.now();
    if (!this.writer.hasRoomFor(1)) {
      const error = FLEET_TEXTS.writerFull;
      return { result: { ok: false, status: 429, error, retryAfterSeconds: WRITER_FULL_RETRY_SECONDS } };
    }
    if (type === 'hello') {
      const { version } = payload as Payload<'hello'>;
      return this.hello(ghostId, version, now);
    }
    if (!this.state.scanners.has(ghostId)) {
      const joined = await this.hello(ghostId, null, now);
      if (!joined.result.ok) return joined;
    }
    switch (type) {
      case 'scanner_status':
        return this.statusReport(ghostId, payload as Payload<'scanner_status'>, now, acknowledged);
      case 'server_hop':
        return this.hop(ghostId, payload as Payload<'server_hop'>, now, acknowledged);
      case 'pet_discovered':
        return this.discovery(ghostId, payload as Payload<'pet_discovered'>, now, acknowledged);
      case 'config_ack': {
        const ack = payload as Payload<'config_ack'>;
        if (!ack.ok)
          this.log.warn({ ghostId, version: ack.version, error: ack.error }, 'bot refused a configuration');
        return this.touch(ghostId, now);
      }
      default:
        return this.touch(ghostId, now);
    }
  }

  private async hello(ghostId: string, version: string | null, now: number): Promise<Applied> {
    if (!this.hasRoomFor(ghostId)) {
      return { result: { ok: false, status: 409, error: FLEET_TEXTS.full(this.ctx.config.FLEET_MAX_BOTS) } };
    }
    const known = this.state.scanners.get(ghostId);
    const scanner: ScannerRecord = {
      ghostId,
      status: 'active',
      scansPerMinute: known?.scansPerMinute ?? 0,
      petsFound: known?.petsFound ?? 0,
      uptime: known?.uptime ?? 100,
      currentJobId: known?.currentJobId ?? null,
      version: version ?? known?.version ?? null,
      // A bot saying hello again starts over: the server's error flag is lifted.
      errorReason: null,
      lastActivity: now,
      firstSeen: known?.firstSeen ?? now,
      rev: (known?.rev ?? 0) + 1,
    };
    return { result: { ok: true }, ...(await this.publishScanner(scanner)) };
  }

  private async statusReport(
    ghostId: string,
    report: Payload<'scanner_status'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    const known = this.state.scanners.get(ghostId);
    if (!known) return { result: { ok: false, status: 409, error: FLEET_TEXTS.sayHello } };
    // An error the server flagged stays until the bot hops successfully or says hello again; an
    // error the bot reports itself is taken as is.
    const flagged = known.status === 'error' && known.errorReason !== null;
    const scanner: ScannerRecord = {
      ...known,
      status: flagged ? 'error' : report.status,
      errorReason: flagged ? known.errorReason : null,
      scansPerMinute: report.scansPerMinute ?? known.scansPerMinute,
      petsFound: report.petsFound ?? known.petsFound,
      uptime: report.uptime ?? known.uptime,
      currentJobId: report.currentJobId === undefined ? known.currentJobId : report.currentJobId,
      lastActivity: now,
      rev: known.rev + 1,
    };
    return { result: { ok: true }, ...(await this.publishScanner(scanner, acknowledged)) };
  }

  private async hop(
    ghostId: string,
    report: Payload<'server_hop'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    const seq = await this.nextSeq();
    const hop: ServerHopEvent = {
      id: randomUUID(),
      seq,
      botId: ghostId,
      scannerId: ghostId,
      fromJobId: report.fromJobId,
      toJobId: report.toJobId,
      fromPlaceId: report.fromPlaceId,
      toPlaceId: report.toPlaceId,
      success: report.success,
      latencyMs: report.latencyMs,
      errorMessage: report.errorMessage ?? null,
      hopReason: report.hopReason,
      timestamp: new Date(now).toISOString(),
      attemptNumber: report.attemptNumber,
      totalServersAttempted: report.totalServersAttempted,
    };
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'hop', hop } satisfies BusFleetMessage);
    this.writer.add(this.scannerRows, ghostId);
    return { result: { ok: true, seq }, written: this.persist(hopRows, hop, acknowledged) };
  }

  private async discovery(
    ghostId: string,
    report: Payload<'pet_discovered'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    // Several bots in one server see the same pet: the first report within a minute is the one kept.
    const first = await this.recentPets.claim(JSON.stringify([report.name, report.jobid]), now);
    if (!first) {
      await this.touch(ghostId, now);
      return { result: { ok: true, duplicate: true } };
    }
    const seq = await this.nextSeq();
    const discovery: PetDiscovery = {
      id: randomUUID(),
      seq,
      name: report.name,
      type: report.type,
      value: report.value,
      numericValue: parsePetValue(report.value),
      count: report.count,
      timestamp: new Date(now).toISOString(),
      placeid: report.placeid,
      jobid: report.jobid,
      scannerId: ghostId,
      botId: ghostId,
    };
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'discovery', discovery } satisfies BusFleetMessage);
    this.writer.add(this.scannerRows, ghostId);
    return { result: { ok: true, seq }, written: this.persist(discoveryRows, discovery, acknowledged) };
  }

  private async touch(ghostId: string, now: number): Promise<Applied> {
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'touch', ghostId, at: now } satisfies BusFleetMessage);
    // A sign of life only: written with the next batch, nobody waits for it.
    this.writer.add(this.scannerRows, ghostId);
    return { result: { ok: true } };
  }

  /** Applies and publishes a scanner's new state; `written` resolves once its row is committed. */
  private async publishScanner(
    scanner: ScannerRecord,
    acknowledged = true,
  ): Promise<{ written?: Promise<void> }> {
    // Applied here at once (the next message of the same batch reads it); the bus copy for this
    // instance is then a no-op, and other instances apply it when it arrives.
    this.state.applyScanner(scanner);
    this.stateChanged();
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'scanner', scanner } satisfies BusFleetMessage);
    return { written: this.persist(this.scannerRows, scanner.ghostId, acknowledged) };
  }

  /**
   * Hands a row to the writer: one that is acknowledged is written within milliseconds and its
   * commit awaited; one nobody is told about goes with the next batch (within a second).
   */
  private persist<R>(kind: RowKind<R>, row: R, acknowledged: boolean): Promise<void> | undefined {
    if (acknowledged) return watched(this.writer.write(kind, row));
    this.writer.add(kind, row);
    return undefined;
  }

  /** The answer once the message's rows are committed; a row the database refused is a 422, not a success. */
  private async settle({ result, written }: Applied): Promise<BotMessageResult> {
    try {
      await written;
      return result;
    } catch (error) {
      if (error instanceof RowSetAsideError) return { ok: false, status: 422, error: error.message };
      throw error;
    }
  }

  private nextSeq(): Promise<number> {
    if (!this.counter) throw new Error('the fleet has not started');
    return this.counter.next();
  }

  /* ---------- what other features call ---------- */

  async markBotError(ghostId: string, reason: string): Promise<void> {
    const now = this.ctx.now();
    const known = this.state.scanners.get(ghostId);
    if (!known && !this.hasRoomFor(ghostId)) return;
    const { written } = await this.publishScanner({
      ghostId,
      status: 'error',
      scansPerMinute: known?.scansPerMinute ?? 0,
      petsFound: known?.petsFound ?? 0,
      uptime: known?.uptime ?? 0,
      currentJobId: known?.currentJobId ?? null,
      version: known?.version ?? null,
      errorReason: reason.slice(0, 500),
      lastActivity: known?.lastActivity ?? now,
      firstSeen: known?.firstSeen ?? now,
      rev: (known?.rev ?? 0) + 1,
    });
    await written;
  }

  /**
   * Removes a bot from the fleet on every instance (fleet-removal.service.ts does the rest): gone from
   * this state at once, so the writer no longer writes its row; then what was queued is written, so no
   * batch committed later brings the row back. Returns whether this instance held it.
   */
  async forget(ghostId: string): Promise<boolean> {
    const at = this.ctx.now();
    const held = this.forgetHere(ghostId, at);
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'removed', ghostId, at } satisfies BusFleetMessage);
    await this.flush();
    return held;
  }

  /** Runs `listener` on this instance when `ghostId` is removed (on any instance). Returns unsubscribe. */
  onRemoved(ghostId: string, listener: () => void): () => void {
    const listeners = this.removalListeners.get(ghostId) ?? new Set();
    this.removalListeners.set(ghostId, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.removalListeners.get(ghostId) === listeners)
        this.removalListeners.delete(ghostId);
    };
  }

  private forgetHere(ghostId: string, at: number): boolean {
    const held = this.state.forget(ghostId, at);
    // Once: the bot's sockets here close, and a socket of it that joins again subscribes anew.
    const listeners = this.removalListeners.get(ghostId) ?? new Set<() => void>();
    this.removalListeners.delete(ghostId);
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error({ err, ghostId }, 'a fleet removal listener failed');
      }
    }
    if (held) this.stateChanged();
    return held;
  }

  lastActivityOf(ghostId: string): number | null {
    return this.state.scanners.get(ghostId)?.lastActivity ?? null;
  }

  /** Every hop and discovery as this instance applies it (from any instance), after the state has it. */
  onEvent(listener: (event: FleetEventWithSeq) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Called at most every STATE_EVERY_MS after scanners or statistics changed. */
  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** The whole picture for a dashboard: scanners, stats and the latest events. */
  backfill(reset: boolean): FleetBackfillPayload {
    const now = this.ctx.now();
    return {
      reset,
      cursor: this.state.head,
      scanners: this.state.scannerList(now),
      networkStats: this.state.networkStats(now),
      hopStats: this.state.hopStats(now),
      hops: this.state.hops.latest(BACKFILL_HOPS),
      discoveries: this.state.discoveries.latest(BACKFILL_DISCOVERIES),
    };
  }

  /** The events after `since`, oldest first; null when some of them are no longer kept (or `since` is ahead). */
  eventsAfter(since: number): FleetEventWithSeq[] | null {
    if (since > this.state.head) return null;
    return this.state.events.after(since);
  }

  private async discoveriesAfter(
    since: number,
    limit: number,
  ): Promise<{ discoveries: PetDiscovery[]; cursor: number; reset: boolean }> {
    const ring = this.state.discoveries;
    const after = since <= this.state.head ? ring.after(since) : null;
    if (after === null) {
      const discoveries = ring.latest(limit);
      return { discoveries, cursor: discoveries.at(-1)?.seq ?? this.state.head, reset: true };
    }
    const discoveries = after.slice(0, limit);
    return { discoveries, cursor: discoveries.at(-1)?.seq ?? Math.max(since, 0), reset: false };
  }

  /* ---------- applying changes (every instance) ---------- */

  private apply(message: unknown): void {
    const m = message as BusFleetMessage;
    switch (m?.kind) {
      case 'hop':
        this.arrive({ kind: 'hop', hop: m.hop, seq: m.hop.seq });
        break;
      case 'discovery':
        this.arrive({ kind: 'discovery', discovery: m.discovery, seq: m.discovery.seq });
        break;
      case 'scanner':
        this.state.applyScanner(m.scanner);
        break;
      case 'touch':
        this.state.touch(m.ghostId, m.at);
        break;
      case 'removed':
        // Removed on another instance: a batch this one was committing may have written the row back.
        if (this.forgetHere(m.ghostId, m.at) && !this.closed) {
          void this.flush()
            .then(() =>
              this.state.scanners.has(m.ghostId) ? undefined : deleteScanner(this.ctx.db, m.ghostId),
            )
            .catch((err: unknown) => this.log.warn({ err }, 'could not delete a removed scanner row'));
        }
        break;
      case 'pruned':
        this.state.dropBefore(m.before);
        if (this.closed) break;
        // Totals cover what is kept: counted again from what is left (the pruning instance has).
        // (Own queued hops written first, so the count includes them.)
        void this.flush()
          .then(() => loadHopTotals(this.ctx.db))
          .then(
            (totals) => {
              this.state.totals = totals;
            },
            (err: unknown) => this.log.warn({ err }, 'could not recount fleet hop totals'),
          );
        break;
      default:
        this.log.warn('ignoring a fleet bus message of an unknown kind');
        return;
    }
    this.stateChanged();
  }

  /** Hands events on in seq order: one after a gap waits (at most REORDER_WAIT_MS) for the gap. */
  private arrive(event: FleetEventWithSeq): void {
    if (event.seq <= this.released) {
      // Later than its wait: applied (the rings keep seq order) rather than lost.
      this.release(event);
      return;
    }
    this.early.set(event.seq, event);
    for (let next = this.early.get(this.released + 1); next; next = this.early.get(this.released + 1)) {
      this.early.delete(next.seq);
      this.released = next.seq;
      this.release(next);
    }
    if (this.early.size === 0) {
      clearTimeout(this.reorderTimer);
      this.reorderTimer = undefined;
    } else {
      this.reorderTimer ??= setTimeout(() => {
        this.reorderTimer = undefined;
        for (const waiting of [...this.early.values()].sort((a, b) => a.seq - b.seq)) {
          this.early.delete(waiting.seq);
          this.released = Math.max(this.released, waiting.seq);
          this.release(waiting);
        }
        this.stateChanged();
      }, REORDER_WAIT_MS).unref();
    }
  }

  private release(event: FleetEventWithSeq): void {
    if (event.kind === 'hop') this.state.applyHop(event.hop);
    else this.state.applyDiscovery(event.discovery);
    this.emit(event);
  }

  private emit(event: FleetEventWithSeq): void {
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch (err) {
        this.log.error({ err }, 'a fleet event listener failed');
      }
    }
  }

  private stateChanged(): void {
    if (this.stateTimer || this.closed) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      this.statusSignature = this.statusesNow();
      for (const listener of this.stateListeners) {
        try {
          listener();
        } catch (err) {
          this.log.error({ err }, 'a fleet state listener failed');
        }
      }
    }, STATE_EVERY_MS).unref();
  }

  private statusesNow(): string {
    const now = this.ctx.now();
    return [...this.state.scanners.values()].map((s) => this.state.effectiveStatus(s, now)).join(',');
  }

  /** A bot that fell silent changes no data: this notices it turning inactive. */
  private checkSilence(): void {
    if (this.statusesNow() !== this.statusSignature) this.stateChanged();
  }

  /* ---------- persistence ---------- */

  /** Whether `events` more bot events fit in the writer now (it is bounded while the database is behind or away). */
  hasRoomForEvents(events: number): boolean {
    return this.writer.hasRoomFor(events);
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Deletes hops and discoveries older than FLEET_RETENTION_DAYS, batch by batch, and tells every
   * instance to forget them too; returns how many rows went.
   */
  async prune(stopped: () => boolean = () => false): Promise<number> {
    await this.flush();
    const before = this.ctx.now() - this.ctx.config.FLEET_RETENTION_DAYS * DAY_MS;
    let deleted = 0;
    for (;;) {
      const batch = await deleteFleetEventsBefore(this.ctx.db, before, DELETE_BATCH);
      deleted += batch;
      if (batch < DELETE_BATCH || stopped()) break;
      await new Promise((r) => setImmediate(r));
    }
    if (deleted > 0) {
      await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'pruned', before } satisfies BusFleetMessage);
      // Every instance recounts on that message; this one is done before the sweep says it is.
      this.state.totals = await loadHopTotals(this.ctx.db);
    }
    return deleted;
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The fleet core: live state, the event stream (`fleet.discoveries` for the feed), bot messages. */
    fleet: Fleet;
  }
}
