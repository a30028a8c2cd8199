import type { Transaction } from 'kysely';
import type { Database } from './database.ts';

/**
 * One kind of row that features hand to the writer (hops, audit rows, key-use tallies…). The kind
 * knows its SQL; the writer owns batching, retries and setting a bad row aside.
 */
export interface RowKind<R> {
  /** The table the rows go to: named in the log when a row is set aside. */
  table: string;
  /** Writes `rows` inside `trx`: all of them or, by throwing, none. */
  write(trx: Transaction<Database>, rows: R[]): Promise<void>;
  /** Rows with the same key while queued become one row (a newer status replaces an older one…). */
  keyOf?(row: R): unknown;
  /** How a queued row and a newer one with the same key become one (default: the newer one). */
  merge?(queued: R, next: R): R;
  /** Called once the rows' transaction committed (a kind that remembers what it inserted). */
  committed?(rows: R[]): void;
}

export interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  /** A flush gives up when the database is away; an acknowledgement waits for it to return. */
  failOnOutage: boolean;
}

export interface Entry {
  row: unknown;
  waiters: Waiter[];
  /**
   * When a row nobody waits for is due (Date.now() ms). Until then it does not ride along with
   * other writes: a bot's scanner row changes with every hop, and is written once a second, not
   * once a hop.
   */
  dueAt: number;
}

type Queue = Map<unknown, Entry>;

/** A row of a batch with its kind, so a failing batch can be split whatever kinds it mixes. */
export interface Item {
  kind: RowKind<unknown>;
  entry: Entry;
}

/**
 * The batched writer's rows (server/db/batch-writer.ts) from the moment they are handed over until
 * they are committed or set aside: queued per kind, kinds in the order they were first used (that is
 * the write order), rows of a kind with the same key merged into one.
 */
export class RowQueue {
  private readonly queues = new Map<RowKind<unknown>, Queue>();
  private nextAnonymousKey = 0;
  /** Rows queued or being written: a row taken for a batch counts until it is `done`. */
  pending = 0;

  /** `lazyDelayMs`: how long a row nobody waits for may wait before it is due. */
  constructor(private readonly lazyDelayMs: number) {}

  /** Queues a row, merged into a queued one with the same key; returns its entry (to wait on). */
  add<R>(kind: RowKind<R>, row: R): Entry {
    const anyKind = kind as RowKind<unknown>;
    let queue = this.queues.get(anyKind);
    if (!queue) {
      queue = new Map();
      this.queues.set(anyKind, queue);
    }
    const key = kind.keyOf ? kind.keyOf(row) : this.nextAnonymousKey++;
    const queued = queue.get(key);
    if (queued) {
      queued.row = kind.merge ? kind.merge(queued.row as R, row) : row;
      return queued;
    }
    const entry: Entry = { row, waiters: [], dueAt: Date.now() + this.lazyDelayMs };
    queue.set(key, entry);
    this.pending += 1;
    return entry;
  }

  /** Every queued entry (not those taken for a batch). */
  entries(): Entry[] {
    return [...this.queues.values()].flatMap((queue) => [...queue.values()]);
  }

  hasWaiters(): boolean {
    for (const queue of this.queues.values())
      for (const entry of queue.values()) if (entry.waiters.length > 0) return true;
    return false;
  }

  /** Takes the rows somebody waits for, and the others that are due. */
  takeDue(): Item[] {
    const items: Item[] = [];
    const now = Date.now();
    for (const [kind, queue] of this.queues) {
      for (const [key, entry] of queue) {
        if (entry.waiters.length === 0 && entry.dueAt > now) continue;
        items.push({ kind, entry });
        queue.delete(key);
      }
    }
    return items;
  }

  /** Puts taken rows back in front of what came since (merging rows that share a key), to be written later. */
  putBack(items: Item[]): void {
    const byKind = new Map<RowKind<unknown>, Item[]>();
    for (const item of items) byKind.set(item.kind, [...(byKind.get(item.kind) ?? []), item]);
    for (const [kind, back] of byKind) {
      const newer = this.queues.get(kind) ?? new Map<unknown, Entry>();
      const queue: Queue = new Map();
      for (const { entry } of back) {
        const key = kind.keyOf ? kind.keyOf(entry.row) : this.nextAnonymousKey++;
        queue.set(key, entry);
      }
      for (const [key, entry] of newer) {
        const older = queue.get(key);
        if (older) {
          older.row = kind.merge ? kind.merge(older.row, entry.row) : entry.row;
          older.waiters.push(...entry.waiters);
          this.pending -= 1;
        } else queue.set(key, entry);
      }
      this.queues.set(kind, queue);
    }
  }

  /** `rows` taken rows are done with: committed or set aside. */
  done(rows: number): void {
    this.pending -= rows;
  }
}
