import type { Db } from '../../db/index.ts';
import { usageDay } from '../../db/usage-day.ts';
import { type AuditEntry, auditLogValues } from './security.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often a batch that could not be written is tried again before it is given up (and logged). */
const MAX_ATTEMPTS = 5;

/** One script key's uses since the last flush. */
interface KeyUseTally {
  scriptKey: string;
  uses: number;
  lastUsed: number;
  /** Uses per UTC day ('YYYY-MM-DD'): a batch can straddle midnight. */
  usesByDay: Map<string, number>;
}

/**
 * One caller's refusals in one rate-limit window. The first refusal inserts one audit row; later
 * ones only raise `count`, which the next flush writes into that row's details.
 */
interface HitWindow {
  /** The first refusal: who, when, and the details every refusal of the window shares. */
  entry: AuditEntry;
  firstAt: number;
  /** When the window ends: a refusal with another end belongs to the next window. */
  resetAt: number;
  count: number;
  /** The row once written (after its transaction committed). */
  rowId: number | undefined;
}

/** Callers whose window is remembered at most; past it the oldest is forgotten (a flood of IPs cannot grow memory). */
const MAX_HIT_WINDOWS = 100_000;
/** Ended windows are forgotten at most this often, on the next refusal. */
const HIT_SWEEP_EVERY_MS = 10_000;

/** What one flush writes. */
interface Batch {
  audits: ReturnType<typeof auditLogValues>[];
  hits: HitWindow[];
  keyUses: Map<number, KeyUseTally>;
  /** Binding id -> when the device last used its key. */
  bindingUses: Map<number, number>;
}

/**
 * Writes that hot paths (the loader, rate limiting) hand off instead of waiting for: audit rows and
 * key-use counters queued here are written together, at most `intervalMs` later, in one transaction
 * per batch, so a busy loader costs one transaction per second rather than one per request.
 * `flush()` writes what is queued now (tests, admin reads, shutdown).
 */
export class PendingWrites {
  private audits: ReturnType<typeof auditLogValues>[] = [];
  /** Caller (limit, scope, identifier) -> its current window's refusals, in order of window start. */
  private readonly hitWindows = new Map<string, HitWindow>();
  /** Windows whose count changed since the last flush. */
  private changedHits = new Set<HitWindow>();
  private nextHitSweepAt = 0;
  private keyUses = new Map<number, KeyUseTally>();
  /** Binding id -> when the device last used its key. */
  private bindingUses = new Map<number, number>();
  /** Batches a flush could not write (the database was away), tried again first by the next flush. */
  private retries: { batch: Batch; attempts: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  // The current UTC day's name and bounds, so counting a use does not format a date each time.
  private day = '';
  private dayStart = 0;
  private dayEnd = 0;

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 1000,
  ) {}

  audit(entry: AuditEntry, timestamp: number): void {
    this.audits.push(auditLogValues(entry, timestamp));
    this.schedule();
  }

  /**
   * One refused call of `caller` (its limit, scope and identifier) in the window ending at `resetAt`.
   * A window gets one audit row, written with the first refusal, whose `details.count` says how many
   * calls it refused: a flood of refusals costs a counter increment each, not a row each.
   */
  rateLimitHit(caller: string, entry: AuditEntry, resetAt: number, now: number): void {
    if (now >= this.nextHitSweepAt) this.sweepHitWindows(now);
    let window = this.hitWindows.get(caller);
    if (window === undefined || window.resetAt !== resetAt) {
      // Deleted and set again, so the Map stays in order of window start and its first entry is the oldest.
      if (window !== undefined) this.hitWindows.delete(caller);
      else if (this.hitWindows.size >= MAX_HIT_WINDOWS) this.forgetOldestHitWindow();
      window = { entry, firstAt: now, resetAt, count: 0, rowId: undefined };
      this.hitWindows.set(caller, window);
    }
    window.count += 1;
    this.changedHits.add(window);
    this.schedule();
  }

  /** Forgets windows that ended (a change still queued is kept by its batch). */
  private sweepHitWindows(now: number): void {
    this.nextHitSweepAt = now + HIT_SWEEP_EVERY_MS;
    for (const [caller, window] of this.hitWindows) if (now >= window.resetAt) this.hitWindows.delete(caller);
  }

  private forgetOldestHitWindow(): void {
    const oldest = this.hitWindows.keys().next();
    if (!oldest.done) this.hitWindows.delete(oldest.value);
  }

  /**
   * One served use of a script key by a bound device: usage_count + 1, last_used, the binding's
   * last_used_date and the day's usage_daily row. Aggregated per key, binding and day until the flush.
   */
  keyUse(scriptKeyId: number, scriptKey: string, bindingId: number, now: number): void {
    if (now < this.dayStart || now >= this.dayEnd) {
      this.dayStart = now - (now % DAY_MS);
      this.dayEnd = this.dayStart + DAY_MS;
      this.day = usageDay(now);
    }
    let tally = this.keyUses.get(scriptKeyId);
    if (tally === undefined) {
      tally = { scriptKey, uses: 0, lastUsed: now, usesByDay: new Map() };
      this.keyUses.set(scriptKeyId, tally);
    }
    tally.uses += 1;
    if (now > tally.lastUsed) tally.lastUsed = now;
    tally.usesByDay.set(this.day, (tally.usesByDay.get(this.day) ?? 0) + 1);
    if (now > (this.bindingUses.get(bindingId) ?? 0)) this.bindingUses.set(bindingId, now);
    this.schedule();
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch: Batch = {
      audits: this.audits,
      hits: [...this.changedHits],
      keyUses: this.keyUses,
      bindingUses: this.bindingUses,
    };
    this.audits = [];
    this.changedHits = new Set();
    this.keyUses = new Map();
    this.bindingUses = new Map();
    // Chained so batches land in order and a flush never overtakes an earlier one; a failed flush
    // does not fail every later one.
    const write = this.flushing.catch(() => {}).then(() => this.writeWithRetries(batch));
    this.flushing = write;
    return write;
  }

  /**
   * Writes batches that failed before, then this one. A batch that fails is kept for the next
   * flush (scheduled at once), so an outage of the database loses nothing; after MAX_ATTEMPTS it is
   * given up, so one unwritable row cannot block the queue for ever. Rejects when anything failed.
   */
  private async writeWithRetries(batch: Batch): Promise<void> {
    const queue = [...this.retries, { batch, attempts: 0 }];
    this.retries = [];
    let failure: unknown;
    for (const entry of queue) {
      try {
        await this.write(entry.batch);
      } catch (error) {
        failure ??= error;
        const attempts = entry.attempts + 1;
        if (attempts < MAX_ATTEMPTS) this.retries.push({ batch: entry.batch, attempts });
        else console.error(`pending writes given up after ${attempts} attempts`, error);
      }
    }
    if (this.retries.length > 0) this.schedule();
    if (failure !== undefined) throw failure;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.flush().catch((error: unknown) => console.error('pending writes failed', error));
    }, this.intervalMs).unref();
  }

  private async write(batch: Batch): Promise<void> {
    const { audits, hits, keyUses, bindingUses } = batch;
    if (audits.length === 0 && hits.length === 0 && keyUses.size === 0 && bindingUses.size === 0) return;
    // Row ids of windows inserted here, kept only once the transaction committed.
    const inserted: [HitWindow, number][] = [];
    await this.db.transaction().execute(async (trx) => {
      // PostgreSQL takes at most 65535 parameters per statement; 8 per audit row.
      for (let i = 0; i < audits.length; i += 1000) {
        await trx
          .insertInto('audit_logs')
          .values(audits.slice(i, i + 1000))
          .execute();
      }
      // The count as it stands now (refusals since the batch was taken included). A window written
      // by an earlier batch is updated; one whose insert has not committed yet is inserted (again,
      // when an earlier attempt rolled back).
      for (const hit of hits) {
        const details = JSON.stringify({ ...hit.entry.details, count: hit.count });
        if (hit.rowId === undefined) {
          const row = await trx
            .insertInto('audit_logs')
            .values({ ...auditLogValues(hit.entry, hit.firstAt), details })
            .returning('id')
            .executeTakeFirstOrThrow();
          inserted.push([hit, row.id]);
        } else {
          await trx.updateTable('audit_logs').set({ details }).where('id', '=', hit.rowId).execute();
        }
      }
      // In id order, so two instances flushing at once lock the same rows in the same order.
      for (const [id, tally] of [...keyUses].sort((a, b) => a[0] - b[0])) {
        // A key deleted meanwhile matches no row: its uses simply go with it.
        await trx
          .updateTable('script_keys')
          .set((eb) => ({ usage_count: eb('usage_count', '+', tally.uses), last_used: tally.lastUsed }))
          .where('id', '=', id)
          .execute();
        for (const [day, uses] of tally.usesByDay) {
          await trx
            .insertInto('usage_daily')
            .values({ day, key: tally.scriptKey, uses })
            .onConflict((oc) =>
              oc.columns(['day', 'key']).doUpdateSet((eb) => ({
                uses: eb('usage_daily.uses', '+', eb.ref('excluded.uses')),
              })),
            )
            .execute();
        }
      }
      for (const [id, lastUsed] of [...bindingUses].sort((a, b) => a[0] - b[0])) {
        await trx
          .updateTable('hardware_bindings')
          .set({ last_used_date: lastUsed })
          .where('id', '=', id)
          .execute();
      }
    });
    for (const [hit, id] of inserted) hit.rowId = id;
  }
}
