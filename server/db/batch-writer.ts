import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, isSerializationFailure } from './errors.ts';
import type { Db } from './index.ts';
import { type Entry, type Item, type RowKind, RowQueue } from './row-queue.ts';

export type { RowKind } from './row-queue.ts';

/** Why a row was not written although the database was there: it can never be written. */
export class RowSetAsideError extends Error {
  constructor(
    readonly table: string,
    readonly reason: string,
  ) {
    super(`The database refused this ${table} row: ${reason}`);
  }
}

/** The database is away: rows wait in the writer (bounded) until it returns. */
export class DatabaseUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The database is unavailable right now: try again in a few seconds', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

export interface BatchWriterOptions {
  /** Rows queued (including ones waiting out an outage) at most; `hasRoomFor` says when it is full. */
  maxPendingRows: number;
  /** Rows added with `add` (nobody waits for them) are written at most this long after they came. */
  lazyDelayMs?: number;
  /** Told how long each transaction took, in seconds, committed or not (the flush-time metric). */
  transacted?: (seconds: number) => void;
}

/** How long rows somebody waits for gather before they are written (group commit). */
const GROUP_WINDOW_MS = 10;
/** Queued rows that are written at once, without waiting for the window to end. */
const GROUP_NOW_AT_ROWS = 1000;
/** Retry delays while the database is away: from 100 ms, doubling, up to 5 s. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;
/** Times a batch is written before a deadlock or serialization failure counts as its rows' fault. */
const CONFLICT_ATTEMPTS = 5;

/**
 * The process's one writer for batched rows. Features hand it rows of their kinds; it writes
 * everything queued in one transaction, 10 ms after the first row somebody waits for came, or as soon
 * as the previous transaction committed (group commit: under load, many rows per transaction; when
 * idle, a row waits 10 ms). `write` resolves when the
 * row is committed, so an answer sent after it never promises a row a crash can lose.
 *
 * When a batch fails because of a row (a constraint, a value the database refuses), the batch is
 * split in halves until the bad rows stand alone: every other row lands, and each bad row is set
 * aside, logged once with its table and reason, and counted. When it fails because the database is
 * away, every row waits (bounded by `maxPendingRows`) and is written when the database returns.
 */
export class BatchWriter {
  private readonly queue: RowQueue;
  private writing: Promise<void> | undefined;
  private urgent = false;
  private timer: NodeJS.Timeout | undefined;
  private grouping: NodeJS.Timeout | undefined;
  private retryDelayMs = 0;
  /** Rows written and rows set aside since start (for health and metrics). */
  readonly counts = { written: 0, setAside: 0 };
  /** False from a failed write for want of a database until the next write that commits. */
  available = true;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: BatchWriterOptions,
  ) {
    this.queue = new RowQueue(options.lazyDelayMs ?? 1000);
  }

  /** Rows queued or being written. */
  get pendingRows(): number {
    return this.queue.pending;
  }

  /** Whether `rows` more rows fit under the bound (a full writer means the database is behind or away). */
  hasRoomFor(rows: number): boolean {
    return this.queue.pending + rows <= this.options.maxPendingRows;
  }

  /** Queues a row and resolves once it is committed (rejects with RowSetAsideError if it never can be). */
  write<R>(kind: RowKind<R>, row: R): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.add(kind, row).waiters.push({ resolve, reject, failOnOutage: false });
      this.schedule(true);
    });
  }

  /** Queues a row nobody waits for (audit rows, usage counters), written within `lazyDelayMs`. */
  add<R>(kind: RowKind<R>, row: R): void {
    this.queue.add(kind, row);
    this.schedule(false);
  }

  /**
   * Writes everything queued now; resolves once it is committed or set aside. Rejects with
   * DatabaseUnavailableError when the database is away (the rows stay queued).
   */
  async flush(): Promise<void> {
    const waits: Promise<void>[] = [];
    const watch = (entry: Entry) =>
      waits.push(
        new Promise<void>((resolve, reject) => {
          // A row set aside is done with: a flush is about the others.
          const done = () => resolve();
          entry.waiters.push({
            resolve: done,
            reject: (e) => (e instanceof RowSetAsideError ? done() : reject(e)),
            failOnOutage: true,
          });
        }),
      );
    for (const entry of this.queue.entries()) watch(entry);
    const inFlight = this.writing;
    this.schedule(true);
    await inFlight;
    await Promise.all(waits);
  }

  /** Writes what is queued (at shutdown); rows that still cannot be written are logged as lost. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } catch (err) {
      this.log.error({ err, rows: this.queue.pending }, 'queued rows could not be written before shutdown');
    }
  }

  private schedule(urgent: boolean): void {
    if (urgent) this.urgent = true;
    // A write in flight picks up what came meanwhile as soon as it is done.
    if (this.writing !== undefined) return;
    if (this.retryDelayMs > 0) {
      this.timer ??= setTimeout(() => this.startWrite(), this.retryDelayMs).unref();
      return;
    }
    if (this.urgent) {
      if (this.queue.pending >= GROUP_NOW_AT_ROWS) {
        this.startWrite();
        return;
      }
      if (this.grouping) return;
      clearTimeout(this.timer);
      this.timer = undefined;
      // The rows that come within GROUP_WINDOW_MS go in one transaction: a commit costs about as
      // much for one row as for a hundred, so this keeps the CPU of a busy fleet low.
      this.grouping = setTimeout(() => {
        this.grouping = undefined;
        this.startWrite();
      }, GROUP_WINDOW_MS);
      return;
    }
    this.timer ??= setTimeout(() => this.startWrite(), this.options.lazyDelayMs ?? 1000).unref();
  }

  private startWrite(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.grouping);
    this.grouping = undefined;
    if (this.writing !== undefined || this.queue.pending === 0) return;
    this.urgent = false;
    const items = this.queue.takeDue();
    if (items.length === 0) {
      this.schedule(false);
      return;
    }
    this.writing = this.writeItems(items)
      .catch((err: unknown) => this.log.error({ err }, 'the batched writer failed'))
      .finally(() => {
        this.writing = undefined;
        if (this.queue.pending > 0) this.schedule(this.queue.hasWaiters());
      });
  }

  private async writeItems(items: Item[]): Promise<void> {
    const { unwritten, outage } = await this.writeOrSplit(items);
    if (unwritten.length > 0) {
      this.waitForDatabase(unwritten, outage);
      return;
    }
    this.retryDelayMs = 0;
    this.available = true;
  }

  /**
   * Writes `items` in one transaction; when a row is at fault, halves until each bad row stands
   * alone. Returns the rows left unwritten because the database went away, in their order.
   */
  private async writeOrSplit(items: Item[]): Promise<{ unwritten: Item[]; outage?: unknown }> {
    if (items.length === 0) return { unwritten: [] };
    try {
      await this.transactRetryingConflicts(items);
    } catch (error) {
      if (isDatabaseUnavailable(error)) return { unwritten: items, outage: error };
      if (items.length === 1) {
        this.setAside(items[0] as Item, error);
        return { unwritten: [] };
      }
      const half = Math.ceil(items.length / 2);
      const first = await this.writeOrSplit(items.slice(0, half));
      if (first.unwritten.length > 0)
        return { unwritten: [...first.unwritten, ...items.slice(half)], outage: first.outage };
      return this.writeOrSplit(items.slice(half));
    }
    this.settle(items);
    return { unwritten: [] };
  }

  /**
   * A deadlock or serialization failure is no fault of a row: two instances' batches took the same rows
   * (fleet rollups) in different orders, and PostgreSQL gave one up. The batch is written again.
   */
  private async transactRetryingConflicts(items: Item[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transact(items);
      } catch (error) {
        if (!isSerializationFailure(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      }
    }
  }

  private async transact(items: Item[]): Promise<void> {
    const byKind = new Map<RowKind<unknown>, unknown[]>();
    for (const { kind, entry } of items) {
      const rows = byKind.get(kind);
      if (rows) rows.push(entry.row);
      else byKind.set(kind, [entry.row]);
    }
    const started = performance.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [kind, rows] of byKind) await kind.write(trx, rows);
      });
    } finally {
      this.options.transacted?.((performance.now() - started) / 1000);
    }
    for (const [kind, rows] of byKind) kind.committed?.(rows);
  }

  private settle(items: Item[]): void {
    this.queue.done(items.length);
    this.counts.written += items.length;
    for (const { entry } of items) for (const waiter of entry.waiters) waiter.resolve();
  }

  private setAside({ kind, entry }: Item, error: unknown): void {
    this.queue.done(1);
    this.counts.setAside += 1;
    const reason = error instanceof Error ? error.message : String(error);
    this.log.error({ table: kind.table, reason, row: entry.row }, 'a row the database refused was set aside');
    const refusal = new RowSetAsideError(kind.table, reason);
    for (const waiter of entry.waiters) waiter.reject(refusal);
  }

  private waitForDatabase(items: Item[], error: unknown): void {
    if (this.available)
      this.log.warn(
        { err: error, rows: this.queue.pending },
        'database unavailable: rows wait in the writer',
      );
    this.available = false;
    this.retryDelayMs = Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, this.retryDelayMs * 2));
    const outage = new DatabaseUnavailableError(error);
    for (const { entry } of items) {
      entry.waiters = entry.waiters.filter((waiter) => {
        if (waiter.failOnOutage) waiter.reject(outage);
        return !waiter.failOnOutage;
      });
    }
    this.queue.putBack(items);
  }
}
