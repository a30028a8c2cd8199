import SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely, type KyselyPlugin, type Migration, Migrator, sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFreshDatabase } from '../../../tests/operations/fresh-database.ts';
import { createDb, type Db, type DialectName, openSqlite } from '../../db/index.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrations } from '../../db/migrations/index.ts';
import { periodicSweepsIdle } from '../../plugins/periodic-sweep.ts';
import { DIALECTS, TEST_BOT_TOKEN, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { hopPayload } from './fleet.fixtures.ts';
import { seedFromDatabase } from './fleet-backfill.ts';
import { loadHopTotals } from './fleet-hop-rollups.store.ts';
import { hopRows } from './fleet-persistence.ts';
import { emptyHopTotals, type HopTotals } from './fleet-records.ts';
import { deleteHopsBefore } from './fleet-retention.store.ts';
import { FleetState } from './fleet-state.ts';

/*
 * Issue 39: the fleet's hop totals come from fleet_hop_rollups, never from a GROUP BY over every hop.
 * The oracle is that GROUP BY, as the totals were counted before: the rollups must always agree with it.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The totals as counted before the rollups: a GROUP BY over every hop kept. */
async function totalsOverEveryHop(db: Db): Promise<HopTotals> {
  const totals = emptyHopTotals();
  const byReason = await db
    .selectFrom('fleet_hops')
    .select((eb) => [
      'hop_reason',
      'success',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('latency_ms').as('latency'),
    ])
    .groupBy(['hop_reason', 'success'])
    .execute();
  for (const r of byReason) {
    const n = Number(r.n);
    totals.totalHops += n;
    if (Number(r.success) === 1) totals.successfulHops += n;
    totals.latencySum += Number(r.latency ?? 0);
    if (Object.hasOwn(totals.byReason, r.hop_reason)) totals.byReason[r.hop_reason] += n;
  }
  const byBot = await db
    .selectFrom('fleet_hops')
    .select((eb) => ['bot_id', eb.fn.countAll<number>().as('n')])
    .groupBy('bot_id')
    .execute();
  for (const r of byBot) totals.byBot.set(r.bot_id, Number(r.n));
  return totals;
}

const day = sql<number>`created_at / 86400000`;

/** What the rollups must hold: the hops kept, grouped per UTC day, bot, reason and outcome. */
async function rollupsOverEveryHop(db: Kysely<any>) {
  const rows = await db
    .selectFrom('fleet_hops')
    .select((eb) => [
      day.as('day'),
      'bot_id',
      'hop_reason',
      'success',
      eb.fn.countAll().as('hops'),
      eb.fn.sum('latency_ms').as('latency_sum'),
    ])
    .groupBy([day, 'bot_id', 'hop_reason', 'success'])
    .orderBy(day)
    .orderBy('bot_id')
    .orderBy('hop_reason')
    .orderBy('success')
    .execute();
  return rows.map(numbers);
}

async function rollupsHeld(db: Kysely<any>) {
  const rows = await db
    .selectFrom('fleet_hop_rollups')
    .selectAll()
    .orderBy('day')
    .orderBy('bot_id')
    .orderBy('hop_reason')
    .orderBy('success')
    .execute();
  return rows.map(numbers);
}

const numbers = (r: Record<string, unknown>) => ({
  day: Number(r.day),
  bot_id: r.bot_id,
  hop_reason: r.hop_reason,
  success: Number(r.success),
  hops: Number(r.hops),
  latency_sum: Number(r.latency_sum),
});

const hop = (over: Record<string, unknown> = {}) => ({ type: 'server_hop', payload: hopPayload(over) });
const failed = (latencyMs: number) =>
  hop({ success: false, latencyMs, hopReason: 'server_full', errorMessage: 'Server is full' });

async function send(t: TestAppSuite, ghostId: string, ...events: unknown[]): Promise<void> {
  const res = await t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
    payload: { ghostId, events },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Hops of three bots, of every outcome and several reasons, on either side of midnight UTC and days back. */
async function sendHopsOverDays(t: TestAppSuite, daysBack: number[]): Promise<void> {
  const now = t.clock.now();
  const midnight = Math.floor(now / DAY) * DAY;
  for (const back of daysBack) {
    t.clock.set(midnight - back * DAY - 60_000);
    await send(t, 'a', hop({ latencyMs: 120 }), hop({ latencyMs: 80, hopReason: 'manual' }), failed(900));
    await send(t, 'b', hop({ latencyMs: 300, hopReason: 'performance' }));
    t.clock.set(midnight - back * DAY + 60_000);
    await send(t, 'a', hop({ latencyMs: 40 }));
    await send(t, 'c', failed(2500), hop({ latencyMs: 77, hopReason: 'error_recovery' }));
  }
  t.clock.set(now);
  await t.ctx.services.fleet.flush();
}

/** Runs `seed` with every query it makes recorded (SQL and parameters). */
async function queriesOf(db: Db, seed: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      queries.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await seed(db.withPlugin(recorder));
  return queries;
}

const FLEET_EVENT_TABLES = /"?(fleet_hops|fleet_discoveries)"?/;

/**
 * The scans of fleet_hops or fleet_discoveries in `query`'s plan that read the whole table (or a
 * whole index): neither a range of an index nor the first rows under a LIMIT.
 */
async function fullScans(db: Db, dialect: DialectName, query: CompiledQuery): Promise<string[]> {
  if (dialect === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
    );
    const limited = /\blimit\b/i.test(query.sql);
    return plan.rows
      .map((r) => r.detail)
      .filter((d) => /^SCAN (fleet_hops|fleet_discoveries)\b/.test(d) && !limited);
  }
  // Without seq scans to choose, a table this small is planned as a large one would be.
  return db.connection().execute(async (conn) => {
    await sql`SET enable_seqscan = off`.execute(conn);
    try {
      const plan = await conn.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PgPlan }> }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
      );
      const found: string[] = [];
      const walk = (node: PgPlan, limited: boolean) => {
        const table = node['Relation Name'];
        const ranged = node['Index Cond'] !== undefined || node['Recheck Cond'] !== undefined;
        if (table && FLEET_EVENT_TABLES.test(table) && !ranged && !limited)
          found.push(`${node['Node Type']} on ${table}`);
        for (const child of node.Plans ?? []) walk(child, limited || node['Node Type'] === 'Limit');
      };
      walk(plan.rows[0]!['QUERY PLAN'][0]!.Plan, false);
      return found;
    } finally {
      await sql`RESET enable_seqscan`.execute(conn);
    }
  });
}

interface PgPlan {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PgPlan[];
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: fleet hop rollups`, () => {
    const t = useTestApp(dialect);
    // The app sweeps once when it becomes ready: done before a test moves the clock.
    beforeEach(() => periodicSweepsIdle(t.app));

    it('keeps the rollups equal to a GROUP BY over every hop, and the totals to the old count', async () => {
      await sendHopsOverDays(t, [0, 1, 3]);
      expect((await rollupsHeld(t.ctx.db)).length).toBeGreaterThan(10);
      expect(await rollupsHeld(t.ctx.db)).toEqual(await rollupsOverEveryHop(t.ctx.db));
      const oracle = await totalsOverEveryHop(t.ctx.db);
      expect(oracle.totalHops).toBe(21);
      expect(await loadHopTotals(t.ctx.db)).toEqual(oracle);
      expect(t.ctx.services.fleet.state.totals).toEqual(oracle);

      // A batch written again (its commit was lost to the writer): its hops are in, and counted once.
      const again = t.ctx.services.fleet.state.hops.latest(5);
      await t.ctx.db.transaction().execute((trx) => hopRows.write(trx, again));
      expect(await rollupsHeld(t.ctx.db)).toEqual(await rollupsOverEveryHop(t.ctx.db));
    });

    it('takes what a retention sweep deletes out of the rollups, so the totals equal a recount', async () => {
      // The clock stands at noon: FLEET_RETENTION_DAYS (7) ago cuts the 7th day back in two.
      await sendHopsOverDays(t, [0, 6, 7, 9]);
      const before = t.clock.now() - 7 * DAY;
      // Chunk by chunk, even inside a day, the rollups stay what the hops kept add up to.
      for (let chunk = 0; chunk < 3; chunk++) {
        expect(await deleteHopsBefore(t.ctx.db, before, 2)).toBe(2);
        expect(await rollupsHeld(t.ctx.db)).toEqual(await rollupsOverEveryHop(t.ctx.db));
      }
      expect(await t.ctx.services.fleet.prune()).toBeGreaterThan(0);
      expect(await rollupsHeld(t.ctx.db)).toEqual(await rollupsOverEveryHop(t.ctx.db));
      // Days wholly past the retention leave no rollup row.
      const days = (await rollupsHeld(t.ctx.db)).map((r) => r.day);
      expect(Math.min(...days)).toBe(Math.floor(before / DAY));
      const oracle = await totalsOverEveryHop(t.ctx.db);
      expect(oracle.totalHops).toBe(2 * 7);
      expect(t.ctx.services.fleet.state.totals).toEqual(oracle);
      expect(await loadHopTotals(t.ctx.db)).toEqual(oracle);
    });

    it('starts without reading fleet_hops or fleet_discoveries from end to end', async () => {
      await sendHopsOverDays(t, [0, 2]);
      await send(t, 'a', {
        type: 'pet_discovered',
        payload: { name: 'Los Tralaleritos', type: 'Secret', value: '$6M/s', placeid: '1', jobid: 'job-b' },
      });
      await t.ctx.services.fleet.flush();
      const state = new FleetState(t.ctx.config.FLEET_INACTIVE_AFTER_MS, 7);
      const queries = await queriesOf(t.ctx.db, (db) => seedFromDatabase({ ...t.ctx, db }, state));
      // The start read what is there: it would have seen a scan's answer as well.
      expect(state.totals).toEqual(await totalsOverEveryHop(t.ctx.db));
      const eventQueries = queries.filter((q) => FLEET_EVENT_TABLES.test(q.sql));
      expect(eventQueries.length).toBeGreaterThan(0);
      const scans = [];
      for (const q of eventQueries)
        for (const scan of await fullScans(t.ctx.db, dialect, q)) scans.push(`${scan}: ${q.sql}`);
      expect(scans).toEqual([]);
    });
  });

  describe(`${dialect}: the fleet_hop_rollups migration`, () => {
    it('fills the rollups from the hops a database already holds', async () => {
      const { db, drop } = await emptyDatabase(dialect);
      try {
        const names = Object.keys(migrations).sort();
        const previous = names[names.indexOf('2026_12_05_R0001_fleet_hop_rollups') - 1]!;
        const migrator = new Migrator({
          db,
          provider: { getMigrations: async () => migrations as Record<string, Migration> },
        });
        const to = await migrator.migrateTo(previous);
        expect(to.error).toBeUndefined();
        const at = Date.UTC(2026, 10, 20, 23, 0, 0);
        const rows = Array.from({ length: 40 }, (_, i) => ({
          seq: i + 1,
          event_id: `e${i}`,
          bot_id: `bot-${i % 3}`,
          to_job_id: 'job',
          to_place_id: '1',
          success: i % 4 === 0 ? 0 : 1,
          latency_ms: 10 * i,
          hop_reason: i % 5 === 0 ? ('manual' as const) : ('auto_scan' as const),
          attempt_number: 1,
          total_servers_attempted: 1,
          // Every 50 minutes from 23:00: three UTC days.
          created_at: at + i * 50 * 60_000,
        }));
        await db.insertInto('fleet_hops').values(rows).execute();
        await migrateToLatest(db);
        const held = await rollupsHeld(db);
        expect(new Set(held.map((r) => r.day)).size).toBe(3);
        expect(held).toEqual(await rollupsOverEveryHop(db));
      } finally {
        await drop();
      }
    });
  });
}

/** A database with no table at all, for a test that migrates it step by step. */
async function emptyDatabase(dialect: DialectName): Promise<{ db: Db; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const { db } = openSqlite(new SQLite(':memory:'));
    return { db, drop: () => db.destroy() };
  }
  const created = await createFreshDatabase(process.env.TEST_DATABASE_URL!, 'rollups');
  const { db } = createDb(created.url);
  return {
    db,
    drop: async () => {
      await db.destroy();
      await created.drop();
    },
  };
}
