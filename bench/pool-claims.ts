/*
 * Pool claims benchmark (`npm run bench:pool-claims`): claims and releases through the server pool's
 * service in this one process, as a fleet's bots make them, on SQLite (a temporary file) and on
 * PostgreSQL (a fresh database on BENCH_DATABASE_URL, default the local server, dropped after).
 * `--workers` bots at a time each claim a server and give it back ('ok'), again and again, for
 * `--seconds`; the pool holds `--servers` servers. Prints claims per second, each call's p50 and p99,
 * and the statements the database was sent per claim and per release (counted in the drivers, so
 * transaction control counts too). SQLite runs twice: as the app opens it (each statement prepared
 * once) and, the baseline, through Kysely's driver alone, which prepares every statement it runs.
 *
 * Options: --dialect sqlite|postgres|both (default both), --workers N (64), --seconds S (10),
 * --servers N (4000), --pool-size N (PostgreSQL connections, 10), --latency-ms MS (0: added each way
 * between Node and PostgreSQL by a relay in this process, as a network between two machines would;
 * it shares this process's event loop, so figures with it are on the low side).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import type { Database } from '../server/db/database.ts';
import { createDb, type DbHandle, type DialectName } from '../server/db/index.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { EmptyPoolSweeps } from '../server/features/server-pool/empty-pool-sweeps.ts';
import {
  addPoolServers,
  claimServer,
  releaseServer,
} from '../server/features/server-pool/server-pool.service.ts';
import { Histogram } from './realtime-clients.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string' },
    workers: { type: 'string' },
    seconds: { type: 'string' },
    servers: { type: 'string' },
    'pool-size': { type: 'string' },
    'latency-ms': { type: 'string' },
  },
});
const DIALECTS: DialectName[] =
  args.dialect === 'sqlite' || args.dialect === 'postgres' ? [args.dialect] : ['sqlite', 'postgres'];
const WORKERS = Number(args.workers ?? 64);
const SECONDS = Number(args.seconds ?? 10);
const SERVERS = Number(args.servers ?? 4000);
const POOL_SIZE = Number(args['pool-size'] ?? 10);
const LATENCY_MS = Number(args['latency-ms'] ?? 0);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WARMUP_MS = 1000;

/** Statements sent to either database, counted where the drivers send them. */
let statements = 0;
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...rest: unknown[]) {
  statements++;
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, rest);
} as typeof pg.Client.prototype.query;
const statementPrototype = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
for (const method of ['all', 'run', 'get', 'iterate']) {
  const original = statementPrototype[method];
  statementPrototype[method] = function (this: unknown, ...rest: unknown[]) {
    statements++;
    return original.apply(this, rest);
  };
}

/** A relay that holds every chunk `ms` before passing it on, each way: a network's round trip. */
function startLatencyRelay(target: URL, ms: number): Promise<Server> {
  const to = { host: target.hostname, port: Number(target.port || 5432) };
  const relay = createServer((client) => {
    const upstream = createConnection(to);
    const delayed = (to: typeof client) => (chunk: Buffer) => setTimeout(() => to.write(chunk), ms);
    client.on('data', delayed(upstream));
    upstream.on('data', delayed(client));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) => relay.listen(0, '127.0.0.1', () => resolve(relay)));
}

async function openDatabase(dialect: DialectName, statementCache: boolean) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-bench-pool-'));
    const file = join(dir, 'bench.db');
    let handle: DbHandle;
    if (!statementCache) {
      const sqlite = new SQLite(file);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
      handle = { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect };
    } else handle = createDb(file);
    return { handle, close: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `scanline_bench_pool_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const relay = LATENCY_MS > 0 ? await startLatencyRelay(url, LATENCY_MS) : null;
  if (relay) url.port = String((relay.address() as { port: number }).port);
  const handle = createDb(url.toString(), { poolSize: POOL_SIZE, onConnectionError: () => {} });
  return {
    handle,
    close: async () => {
      relay?.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function run(dialect: DialectName, statementCache = true) {
  const { handle, close } = await openDatabase(dialect, statementCache);
  await migrateToLatest(handle.db);
  const config = loadConfig({ POOL_MAX_SERVERS_PER_BOT: '3', LOG_LEVEL: 'silent' });
  // What the pool's service reads of the app: its settings, database, clock and claim counter.
  const ctx = {
    config,
    db: handle.db,
    dialect,
    now: Date.now,
    services: { metrics: { claim: () => {} }, emptyPoolSweeps: new EmptyPoolSweeps() },
  } as unknown as AppContext;
  for (let from = 0; from < SERVERS; from += 500) {
    const servers = Array.from({ length: Math.min(500, SERVERS - from) }, (_, i) => ({
      placeId: '109983668079237',
      jobId: `bench-job-${from + i}`,
    }));
    await addPoolServers(ctx, servers);
  }
  const claims = new Histogram();
  const releases = new Histogram();
  let failed = 0;
  // Measured after a warm-up; decided in the loop, since on SQLite the loop may leave no turn to timers.
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + SECONDS * 1000;
  let measuring = false;
  let statementsAtStart = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      const ghostId = `bench-bot-${worker}`;
      while (performance.now() < end) {
        const t0 = performance.now();
        if (!measuring && t0 >= measureFrom) {
          measuring = true;
          statementsAtStart = statements;
        }
        try {
          const { server } = await claimServer(ctx, { ghostId });
          const t1 = performance.now();
          await releaseServer(ctx, { ghostId, jobId: server.jobId, outcome: 'ok' }, { ip: '127.0.0.1' });
          if (measuring) {
            claims.record(t1 - t0);
            releases.record(performance.now() - t1);
          }
        } catch {
          failed++;
        }
      }
    }),
  );
  const sent = statements - statementsAtStart;
  await handle.db.destroy();
  await close();
  const rate = claims.count / SECONDS;
  const perCycle = claims.count > 0 ? sent / claims.count : Number.NaN;
  const label =
    dialect === 'postgres'
      ? `postgres (pool ${POOL_SIZE}, +${LATENCY_MS} ms each way)`
      : `sqlite (${statementCache ? 'statements prepared once' : "Kysely's driver: every statement prepared"})`;
  console.log(
    `${label}: ${WORKERS} bots, ${SERVERS} servers, ${SECONDS} s: ${rate.toFixed(0)} claims/s (and as many releases), ` +
      `claim p50 ${claims.percentile(0.5).toFixed(1)} ms p99 ${claims.percentile(0.99).toFixed(1)} ms, ` +
      `release p50 ${releases.percentile(0.5).toFixed(1)} ms p99 ${releases.percentile(0.99).toFixed(1)} ms, ` +
      `${perCycle.toFixed(1)} statements per claim and release, ${failed} failed`,
  );
  return rate;
}

const rates: string[] = [];
for (const dialect of DIALECTS) {
  const rate = await run(dialect);
  rates.push(`${dialect} ${rate.toFixed(0)}/s`);
  if (dialect !== 'sqlite') continue;
  const baseline = await run(dialect, false);
  rates.push(
    `sqlite ${(rate / baseline).toFixed(2)}x its baseline (${baseline.toFixed(0)}/s preparing every statement)`,
  );
}
console.log(`claims per second: ${rates.join(', ')}`);
