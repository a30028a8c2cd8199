/*
 * Week-of-data benchmark (`npm run bench:week`, issue 39): a database holding a week of a 70-bot
 * fleet (a hop every 5 s and a find every 10 s per bot: 8.5M hops, 4.2M finds), built in SQL
 * (bench/week-of-data-build.ts: a week cannot be simulated in real time), against an empty database
 * (the baseline), in one run. For each it prints:
 * - start: from spawning the real server (bench/week-of-data-server.ts) to its first answer
 *   (GET /healthz), the median of --starts runs; goal: within 2 s of the empty database's;
 * - the hourly retention sweep: the server's clock moves an hour on and the fleet's sweep runs
 *   (an hour of hops and finds past FLEET_RETENTION_DAYS, and the totals read again): rows deleted,
 *   time, and the event loop's longest delay meanwhile; goal: under 100 ms.
 * And how long the rollups take to fill from the hops (what the 2026_12_05_R0001 migration does once).
 *
 * SQLite always (a temporary file); PostgreSQL too when TEST_DATABASE_URL is set (two throwaway
 * databases on that server, dropped at the end). Options: --days N (default 7), --bots N (default
 * 70), --starts N (default 3), --dialects sqlite,postgres, --keep (leave the databases, and print
 * where they are, to look at them after).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import { createDb, type DialectName } from '../server/db/index.ts';
import { fillHopRollups } from '../server/db/migrations/2026_12_05_R0001_fleet_hop_rollups.ts';
import { seedFromDatabase } from '../server/features/fleet/fleet-backfill.ts';
import { FleetState } from '../server/features/fleet/fleet-state.ts';
import { createLocalBus } from '../server/realtime/bus.ts';
import { migrateAndSeed } from '../server/startup.ts';
import { buildWeek, countsOf, sizeOnDisk } from './week-of-data-build.ts';
import type { SweepAnswer } from './week-of-data-server.ts';

const { values: flags } = parseArgs({
  options: {
    days: { type: 'string' },
    bots: { type: 'string' },
    starts: { type: 'string' },
    dialects: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const DAYS = Number(flags.days ?? 7);
const BOTS = Number(flags.bots ?? 70);
const STARTS = Number(flags.starts ?? 3);
const PG_URL = process.env.TEST_DATABASE_URL;
const DIALECTS = (flags.dialects ?? (PG_URL ? 'sqlite,postgres' : 'sqlite'))
  .split(',')
  .map((d) => d.trim()) as DialectName[];
if (!(DAYS > 0) || !(BOTS > 0) || !(STARTS > 0)) {
  console.error('--days, --bots and --starts must be positive numbers');
  process.exit(2);
}
if (DIALECTS.includes('postgres') && !PG_URL) {
  console.error('PostgreSQL needs TEST_DATABASE_URL (postgres://…)');
  process.exit(2);
}
const GOALS = { startDifferenceS: 2, sweepLagMs: 100 } as const;
const SECRETS = {
  ADMIN_SECRET: 'bench-admin-secret-0123456789',
  BOT_TOKEN: 'bench-bot-token-0123456789abcdef',
};

interface Measured {
  startS: number;
  sweep: SweepAnswer;
}

/** What the fleet reads at start, timed here on the database itself (no server around it). */
interface StartQueries {
  seedMs: number;
  seedLagMs: number;
  /** The totals as counted before the rollups: a GROUP BY over every hop (for comparison). */
  groupByMs: number;
}

/** A database the benchmark made, and how to get rid of it. */
interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function newDatabase(dialect: DialectName, name: string): Promise<BenchDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-week-'));
    return { url: join(dir, `${name}.db`), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = `scanline_bench_${name}_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${database}`);
  const url = new URL(PG_URL!);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`) };
}

/** One statement on TEST_DATABASE_URL's own database (CREATE and DROP DATABASE). */
async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Migrates (and for the week, fills) a database, as a running deployment's would be. */
async function prepare(dialect: DialectName, url: string, week: boolean): Promise<string> {
  const { db } = createDb(url);
  const bus = createLocalBus();
  const config = loadConfig({ DATABASE_URL: url, ...SECRETS });
  try {
    await migrateAndSeed({ config, db, dialect, bus, now: Date.now });
    if (!week) return 'empty (migrated)';
    const size = { bots: BOTS, days: DAYS, end: Date.now() };
    const counts = countsOf(size);
    let started = performance.now();
    await buildWeek(db, dialect, size, (text) => process.stdout.write(`\r  building ${text}      `));
    const buildS = (performance.now() - started) / 1000;
    if (dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
    started = performance.now();
    await fillHopRollups(db);
    const fillS = (performance.now() - started) / 1000;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM fleet_hop_rollups`.execute(db);
    const gb = (await sizeOnDisk(db, dialect)) / 1e9;
    process.stdout.write('\r');
    return (
      `${BOTS} bots, ${DAYS} days: ${counts.hops.toLocaleString('en')} hops, ` +
      `${counts.finds.toLocaleString('en')} finds, ${gb.toFixed(2)} GB, built in ${buildS.toFixed(0)} s; ` +
      `rollups filled from the hops (the migration, once) in ${fillS.toFixed(1)} s: ` +
      `${Number(rows[0]?.n).toLocaleString('en')} rows`
    );
  } finally {
    await bus.close();
    await db.destroy();
  }
}

async function timeStartQueries(dialect: DialectName, url: string): Promise<StartQueries> {
  const { db } = createDb(url);
  try {
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    let started = performance.now();
    const ctx = { db, dialect, now: Date.now } as unknown as AppContext;
    await seedFromDatabase(ctx, new FleetState(30_000, DAYS));
    const seedMs = performance.now() - started;
    // The probe's timer records a delay when it fires, after the statement that held the loop.
    await sleep(20);
    lag.disable();
    started = performance.now();
    await db
      .selectFrom('fleet_hops')
      .select((eb) => ['hop_reason', 'success', eb.fn.countAll().as('n'), eb.fn.sum('latency_ms').as('l')])
      .groupBy(['hop_reason', 'success'])
      .execute();
    await db
      .selectFrom('fleet_hops')
      .select((eb) => ['bot_id', eb.fn.countAll().as('n')])
      .groupBy('bot_id')
      .execute();
    const groupByMs = performance.now() - started;
    return { seedMs, seedLagMs: Math.max(0, lag.max / 1e6 - 5), groupByMs };
  } finally {
    await db.destroy();
  }
}

/** Starts the server, times its first answer, runs a sweep in it and stops it. */
async function startAndSweep(url: string, sweep: boolean): Promise<Measured> {
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'week-of-data-server.ts')],
    {
      env: {
        ...process.env,
        ...SECRETS,
        DATABASE_URL: url,
        // A shorter span (--days) is kept whole, and its oldest hour goes at the sweep, as a week's does.
        FLEET_RETENTION_DAYS: String(DAYS),
        LOG_LEVEL: 'error',
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.on('message', (m: { port?: number }) => typeof m?.port === 'number' && resolve(m.port));
      child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (!res.ok) throw new Error(`/healthz answered ${res.status}`);
    const startS = (performance.now() - started) / 1000;
    if (!sweep) return { startS, sweep: { type: 'sweep', deleted: 0, ms: 0, lagMaxMs: 0 } };
    const answer = new Promise<SweepAnswer>((resolve) =>
      child.on('message', (m: SweepAnswer) => m?.type === 'sweep' && resolve(m)),
    );
    child.send('sweep');
    return { startS, sweep: await answer };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Starts on both databases in turn, so load from elsewhere falls on both alike; medians, the last runs' sweeps. */
async function measure(emptyUrl: string, weekUrl: string): Promise<[Measured, Measured]> {
  const runs: Array<[Measured, Measured]> = [];
  for (let i = 0; i < STARTS; i++) {
    const last = i === STARTS - 1;
    runs.push([await startAndSweep(emptyUrl, last), await startAndSweep(weekUrl, last)]);
  }
  const median = (side: 0 | 1): Measured => {
    const starts = runs.map((r) => r[side].startS).sort((a, b) => a - b);
    return { startS: starts[Math.floor(starts.length / 2)]!, sweep: runs.at(-1)![side].sweep };
  };
  return [median(0), median(1)];
}

function table(
  dialect: DialectName,
  [empty, week]: [Measured, Measured],
  [emptyQueries, weekQueries]: [StartQueries, StartQueries],
): void {
  const difference = week.startS - empty.startS;
  const rows = [
    ['', 'empty', 'week', 'goal', ''],
    [
      'start (spawn to first answer)',
      `${empty.startS.toFixed(2)} s`,
      `${week.startS.toFixed(2)} s`,
      `within ${GOALS.startDifferenceS} s of empty`,
      difference <= GOALS.startDifferenceS ? `met (+${difference.toFixed(2)} s)` : 'MISSED',
    ],
    [
      'sweep: rows deleted',
      empty.sweep.deleted.toLocaleString('en'),
      week.sweep.deleted.toLocaleString('en'),
      '',
      '',
    ],
    [
      "fleet's start queries (here)",
      `${emptyQueries.seedMs.toFixed(0)} ms`,
      `${weekQueries.seedMs.toFixed(0)} ms`,
      '',
      `event-loop delay max ${weekQueries.seedLagMs.toFixed(0)} ms`,
    ],
    [
      'before: GROUP BY over every hop',
      `${emptyQueries.groupByMs.toFixed(0)} ms`,
      `${weekQueries.groupByMs.toFixed(0)} ms`,
      '',
      'what start and each sweep ran before the rollups',
    ],
    ['sweep: time', `${empty.sweep.ms.toFixed(0)} ms`, `${week.sweep.ms.toFixed(0)} ms`, '', ''],
    [
      'sweep: event-loop delay, max',
      `${empty.sweep.lagMaxMs.toFixed(1)} ms`,
      `${week.sweep.lagMaxMs.toFixed(1)} ms`,
      `under ${GOALS.sweepLagMs} ms`,
      week.sweep.lagMaxMs < GOALS.sweepLagMs ? 'met' : 'MISSED',
    ],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log(`\n${dialect}:`);
  for (const r of rows) console.log(`  ${r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}`);
}

for (const dialect of DIALECTS) {
  console.log(`\n${dialect}: preparing an empty database and a week of data …`);
  const empty = await newDatabase(dialect, 'empty');
  const week = await newDatabase(dialect, 'week');
  try {
    console.log(`  ${await prepare(dialect, empty.url, false)}`);
    console.log(`  ${await prepare(dialect, week.url, true)}`);
    const queries: [StartQueries, StartQueries] = [
      await timeStartQueries(dialect, empty.url),
      await timeStartQueries(dialect, week.url),
    ];
    table(dialect, await measure(empty.url, week.url), queries);
  } finally {
    if (flags.keep) console.log(`  kept: ${empty.url} and ${week.url}`);
    else {
      await empty.drop();
      await week.drop();
    }
  }
}
