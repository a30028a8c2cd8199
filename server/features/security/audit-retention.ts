import { setImmediate } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { deleteAuditLogsBefore } from './security.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often the sweep runs (and once at start). */
export const AUDIT_SWEEP_EVERY_MS = 60 * 60 * 1000;
/**
 * Rows one statement deletes: a backlog (the first sweep after months, or after a flood) goes in
 * short statements with a turn of the event loop between them, so neither SQLite's single writer
 * nor a PostgreSQL lock is held long enough for a request to notice.
 */
const DELETE_BATCH = 1000;

/**
 * Deletes audit rows older than AUDIT_RETENTION_DAYS (on the app's clock), batch by batch; returns
 * how many. `stopped` is asked between batches, so closing the app does not wait for a whole backlog.
 */
export async function pruneAuditLogs(ctx: AppContext, stopped: () => boolean = () => false): Promise<number> {
  const before = ctx.now() - ctx.config.AUDIT_RETENTION_DAYS * DAY_MS;
  let deleted = 0;
  for (;;) {
    const batch = await deleteAuditLogsBefore(ctx.db, before, DELETE_BATCH);
    deleted += batch;
    if (batch < DELETE_BATCH || stopped()) return deleted;
    await setImmediate();
  }
}

/** Prunes the audit log when the app is ready and every hour after, until it closes. */
export function scheduleAuditRetention(app: FastifyInstance, ctx: AppContext): void {
  schedulePeriodicSweep(app, {
    name: 'audit log rows past their retention',
    everyMs: AUDIT_SWEEP_EVERY_MS,
    run: (stopped) => pruneAuditLogs(ctx, stopped),
  });
}
