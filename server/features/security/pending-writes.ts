import type { BatchWriter, RowKind } from '../../db/batch-writer.ts';
import { usageDay } from '../../db/usage-day.ts';
import { type AuditEntry, auditLogValues } from './security.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

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

type AuditRow = ReturnType<typeof auditLogValues>;

/** Audit rows: inserted as they come. PostgreSQL takes at most 65535 parameters a statement; 8 per row. */
const auditRows: RowKind<AuditRow> = {
  table: 'audit_logs',
  async write(trx, rows) {
    for (let i = 0; i < rows.length; i += 1000) {
      await trx
        .insertInto('audit_logs')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  },
};

/** Row ids of windows inserted by a transaction not yet known to have committed. */
const insertedHitIds = new WeakMap<HitWindow, number>();

/**
 * A window of refusals: its one audit row, inserted with the first refusal and updated with the
 * count as it stands when written (refusals since the window was queued included). One per window
 * while queued.
 */
const hitRows: RowKind<HitWindow> = {
  table: 'audit_logs',
  keyOf: (hit) => hit,
  async write(trx, hits) {
    for (const hit of hits) {
      const details = JSON.stringify({ ...hit.entry.details, count: hit.count });
      if (hit.rowId === undefined) {
        const row = await trx
          .insertInto('audit_logs')
          .values({ ...auditLogValues(hit.entry, hit.firstAt), details })
          .returning('id')
          .executeTakeFirstOrThrow();
        insertedHitIds.set(hit, row.id);
      } else {
        await trx.updateTable('audit_logs').set({ details }).where('id', '=', hit.rowId).execute();
      }
    }
  },
  // Kept only once committed: a window whose insert rolled back is inserted again.
  committed(hits) {
    for (const hit of hits) hit.rowId ??= insertedHitIds.get(hit);
  },
};

/** One key's uses since they were last written: usage_count + uses, last_used, the day's usage_daily rows. */
const keyUseRows: RowKind<KeyUseTally & { scriptKeyId: number }> = {
  table: 'script_keys',
  keyOf: (tally) => tally.scriptKeyId,
  // Added to in place: a queued tally is the writer's alone (a batch takes its rows out of the queue
  // first), and a served call, the hot path, then allocates only its own small tally.
  merge: (queued, next) => {
    for (const [day, uses] of next.usesByDay)
      queued.usesByDay.set(day, (queued.usesByDay.get(day) ?? 0) + uses);
    queued.uses += next.uses;
    queued.lastUsed = Math.max(queued.lastUsed, next.lastUsed);
    return queued;
  },
  async write(trx, tallies) {
    // In id order, so two instances writing at once lock the same rows in the same order.
    for (const tally of [...tallies].sort((a, b) => a.scriptKeyId - b.scriptKeyId)) {
      // A key deleted meanwhile matches no row: its uses simply go with it.
      await trx
        .updateTable('script_keys')
        .set((eb) => ({ usage_count: eb('usage_count', '+', tally.uses), last_used: tally.lastUsed }))
        .where('id', '=', tally.scriptKeyId)
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
  },
};

/** When a device last used its key (hardware_bindings.last_used_date). */
const bindingUseRows: RowKind<{ bindingId: number; lastUsed: number }> = {
  table: 'hardware_bindings',
  keyOf: (use) => use.bindingId,
  merge: (queued, next) => (next.lastUsed > queued.lastUsed ? next : queued),
  async write(trx, uses) {
    for (const use of [...uses].sort((a, b) => a.bindingId - b.bindingId)) {
      await trx
        .updateTable('hardware_bindings')
        .set({ last_used_date: use.lastUsed })
        .where('id', '=', use.bindingId)
        .execute();
    }
  },
};

/** Tells `told` how many of `rows` there are of each event type. */
function tellByEventType<R>(
  rows: R[],
  eventTypeOf: (row: R) => string,
  told: (type: string, n: number) => void,
) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(eventTypeOf(row), (counts.get(eventTypeOf(row)) ?? 0) + 1);
  for (const [eventType, n] of counts) told(eventType, n);
}

/**
 * Writes that hot paths (the loader, rate limiting) hand off instead of waiting for: audit rows,
 * rate-limit windows and key-use counters, given to the app's BatchWriter as rows nobody waits for
 * (written within a second, with whatever else is queued), so a busy loader costs a share of one
 * transaction per second rather than one per request. `flush()` writes what is queued now (admin
 * reads, tests, shutdown).
 */
export class PendingWrites {
  /** Caller (limit, scope, identifier) -> its current window's refusals, in order of window start. */
  private readonly hitWindows = new Map<string, HitWindow>();
  private nextHitSweepAt = 0;
  // The current UTC day's name and bounds, so counting a use does not format a date each time.
  private day = '';
  private dayStart = 0;
  private dayEnd = 0;

  /** The row kinds of this app's audit rows, which tell `auditRowsWritten` what they committed. */
  private readonly auditRows: RowKind<AuditRow>;
  private readonly hitRows: RowKind<HitWindow>;

  /** `auditRowsWritten`: told, per event type, how many audit rows a committed batch inserted (the metric). */
  constructor(
    private readonly writer: BatchWriter,
    auditRowsWritten: (eventType: string, rows: number) => void = () => {},
  ) {
    this.auditRows = {
      ...auditRows,
      committed: (rows) => tellByEventType(rows, (row) => row.event_type, auditRowsWritten),
    };
    this.hitRows = {
      ...hitRows,
      committed: (hits) => {
        // A window's row is inserted once and then only updated: count the ones this batch inserted.
        const inserted = hits.filter((hit) => hit.rowId === undefined && insertedHitIds.has(hit));
        hitRows.committed?.(hits);
        tellByEventType(inserted, (hit) => hit.entry.eventType, auditRowsWritten);
      },
    };
  }

  audit(entry: AuditEntry, timestamp: number): void {
    this.writer.add(this.auditRows, auditLogValues(entry, timestamp));
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
    this.writer.add(this.hitRows, window);
  }

  /** Forgets windows that ended (a change still queued is kept by the writer). */
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
   * last_used_date and the day's usage_daily row. Aggregated per key, binding and day until written.
   */
  keyUse(scriptKeyId: number, scriptKey: string, bindingId: number, now: number): void {
    if (now < this.dayStart || now >= this.dayEnd) {
      this.dayStart = now - (now % DAY_MS);
      this.dayEnd = this.dayStart + DAY_MS;
      this.day = usageDay(now);
    }
    this.writer.add(keyUseRows, {
      scriptKeyId,
      scriptKey,
      uses: 1,
      lastUsed: now,
      usesByDay: new Map([[this.day, 1]]),
    });
    this.writer.add(bindingUseRows, { bindingId, lastUsed: now });
  }

  /** Writes everything queued so far; resolves once it is in the database (rejects while the database is away). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
