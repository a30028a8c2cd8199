import type { Db } from '../../db/index.ts';
import { type AuditEntry, auditLogValues } from './security.store.ts';

/**
 * Writes that hot paths (the loader, rate limiting) hand off instead of waiting for: audit rows
 * queued here are inserted together, at most `intervalMs` later, in one statement per batch, so a
 * busy loader costs one transaction per second rather than one per request. `flush()` writes what
 * is queued now (tests, admin reads, shutdown).
 */
export class PendingWrites {
  private audits: ReturnType<typeof auditLogValues>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 1000,
  ) {}

  audit(entry: AuditEntry, timestamp: number): void {
    this.audits.push(auditLogValues(entry, timestamp));
    this.schedule();
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const audits = this.audits;
    this.audits = [];
    // Chained so batches land in order and a flush never overtakes an earlier one.
    this.flushing = this.flushing.then(() => this.write(audits));
    return this.flushing;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.flush().catch((error: unknown) => console.error('pending writes failed', error));
    }, this.intervalMs).unref();
  }

  private async write(audits: ReturnType<typeof auditLogValues>[]): Promise<void> {
    // PostgreSQL takes at most 65535 parameters per statement; 7 per audit row.
    for (let i = 0; i < audits.length; i += 1000) {
      await this.db
        .insertInto('audit_logs')
        .values(audits.slice(i, i + 1000))
        .execute();
    }
  }
}
