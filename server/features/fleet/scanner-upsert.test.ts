import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { DIALECTS, openTestDatabase } from '../../test/helper.ts';
import { upsertScanners } from './fleet.store.ts';
import type { ScannerRecord } from './fleet-records.ts';

/*
 * The batched writer hands upsertScanners every bot that changed since the last batch: at 2,000 bots
 * that is hundreds a second, and one statement per bot was a round trip each on PostgreSQL (issue 39).
 */

const scanner = (i: number, status: ScannerRecord['status'] = 'scanning'): ScannerRecord => ({
  ghostId: `ghost-${String(i).padStart(5, '0')}`,
  status,
  scansPerMinute: i % 60,
  petsFound: i,
  uptime: 1000 + i,
  currentJobId: `job-${i}`,
  version: '1.0.0',
  errorReason: null,
  lastActivity: 1_000_000 + i,
  firstSeen: 1_000 + i,
  rev: 1,
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: scanner rows in one statement a batch`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    let statements: string[] = [];
    beforeEach(async () => {
      ({ db, drop } = await openTestDatabase(dialect, { onStatement: (sql) => statements.push(sql) }));
    });
    afterEach(async () => {
      await drop?.();
    });

    it('writes 500 scanners in one statement, and updates them in one more', async () => {
      statements = [];
      await upsertScanners(
        db,
        Array.from({ length: 500 }, (_, i) => scanner(i)),
      );
      expect(statements).toHaveLength(1);

      statements = [];
      await upsertScanners(db, [
        ...Array.from({ length: 499 }, (_, i) => scanner(i, 'hopping')),
        { ...scanner(499, 'error'), errorReason: 'Failed on 10 different servers in a row', firstSeen: 1 },
      ]);
      expect(statements).toHaveLength(1);
      const rows = await db.selectFrom('fleet_scanners').selectAll().orderBy('ghost_id').execute();
      expect(rows).toHaveLength(500);
      expect(rows.filter((r) => r.status === 'hopping')).toHaveLength(499);
      // The first sighting stays as first written; the rest is the bot's latest state.
      expect(rows[499]).toMatchObject({
        ghost_id: 'ghost-00499',
        status: 'error',
        error_reason: 'Failed on 10 different servers in a row',
        first_seen: 1499,
        last_activity: 1_000_499,
      });
    });

    it('writes more scanners than one statement may carry values for, in chunks', async () => {
      statements = [];
      await upsertScanners(
        db,
        Array.from({ length: 7000 }, (_, i) => scanner(i)),
      );
      expect(statements.length).toBeGreaterThanOrEqual(2);
      expect(statements.length).toBeLessThanOrEqual(3);
      const { n } = await db
        .selectFrom('fleet_scanners')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(7000);
    });
  });
}
