import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicSweepsIdle } from '../../plugins/periodic-sweep.ts';
import { buildTestApp, DIALECTS, useTestApp } from '../../test/helper.ts';
import { AUDIT_SWEEP_EVERY_MS, pruneAuditLogs } from './audit-retention.ts';
import { auditLogValues, insertAuditLog } from './security.store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: audit log retention`, () => {
    const t = useTestApp(dialect);
    // The app sweeps once when it becomes ready: let that finish, so it cannot take the rows below.
    beforeEach(() => periodicSweepsIdle(t.app));

    const recordAged = (ageDays: number) =>
      insertAuditLog(
        t.ctx.db,
        { eventType: 'binding_attempt', success: true, details: { ageDays } },
        t.clock.now() - ageDays * DAY_MS,
      );
    const remainingAges = async () =>
      (
        await t.ctx.db
          .selectFrom('audit_logs')
          .select('details')
          .where('event_type', '=', 'binding_attempt')
          .orderBy('timestamp')
          .execute()
      ).map((row) => (JSON.parse(row.details) as { ageDays: number }).ageDays);

    it('deletes rows older than AUDIT_RETENTION_DAYS (90 by default) and keeps the newer ones', async () => {
      for (const ageDays of [400, 91, 90.01, 89.99, 1, 0]) await recordAged(ageDays);
      expect(await pruneAuditLogs(t.ctx)).toBe(3);
      expect(await remainingAges()).toEqual([89.99, 1, 0]);

      // Time passes: what was kept ages out in turn.
      t.clock.advance(2 * DAY_MS);
      expect(await pruneAuditLogs(t.ctx)).toBe(1);
      expect(await remainingAges()).toEqual([1, 0]);
    });

    it('deletes a large backlog in batches, so one sweep never holds the table in one statement', async () => {
      const old = auditLogValues(
        { eventType: 'rate_limit_hit', success: false },
        t.clock.now() - 100 * DAY_MS,
      );
      await t.ctx.db
        .insertInto('audit_logs')
        .values(Array.from({ length: 2500 }, () => old))
        .execute();
      await recordAged(0);
      const deletes = vi.spyOn(t.ctx.db, 'deleteFrom');
      expect(await pruneAuditLogs(t.ctx)).toBe(2500);
      // Only the audit log's deletes: the app's other timers may delete elsewhere meanwhile.
      expect(deletes.mock.calls.filter(([table]) => table === 'audit_logs')).toHaveLength(3);
      expect(await remainingAges()).toEqual([0]);
    });
  });

  describe(`${dialect}: the audit retention sweep`, () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('runs every hour with the configured retention, and stops when the app closes', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const t = await buildTestApp(dialect, { AUDIT_RETENTION_DAYS: '30' });
      try {
        const ageOf = (days: number) => t.clock.now() - days * DAY_MS;
        for (const days of [31, 29]) {
          await insertAuditLog(t.ctx.db, { eventType: 'binding_attempt', success: true }, ageOf(days));
        }
        const timestamps = async () =>
          (
            await t.ctx.db
              .selectFrom('audit_logs')
              .select('timestamp')
              .where('event_type', '=', 'binding_attempt')
              .orderBy('timestamp')
              .execute()
          ).map((row) => Number(row.timestamp));
        expect(vi.getTimerCount()).toBeGreaterThan(0);
        vi.advanceTimersByTime(AUDIT_SWEEP_EVERY_MS);
        await vi.waitFor(async () => expect(await timestamps()).toEqual([ageOf(29)]));
      } finally {
        await t.close();
      }
      expect(vi.getTimerCount()).toBe(0);
    });
  });
}
