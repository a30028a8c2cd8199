/*
 * The real server the week-of-data benchmark starts (bench/week-of-data.ts), in its own process,
 * built as server/main.ts builds it, on a clock the benchmark can move. It sends {port} once it
 * listens; asked 'sweep' over IPC, it waits for the sweep the app ran when it became ready, moves its
 * clock an hour on (an hour of data passes its retention, as every hour in production;
 * BENCH_SWEEP_HOURS moves it further), runs the
 * fleet's retention sweep and answers how many rows went, how long it took and the event loop's
 * longest delay meanwhile (the totals' recount the sweep sets off included).
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { AppBase, AppContext } from '../server/context.ts';
import { createDb } from '../server/db/index.ts';
import { periodicSweepsIdle } from '../server/plugins/periodic-sweep.ts';
import { createBus } from '../server/realtime/create-bus.ts';
import { prepareDatabase } from '../server/startup.ts';

export interface SweepAnswer {
  type: 'sweep';
  deleted: number;
  ms: number;
  lagMaxMs: number;
}

const HOUR_MS = 3_600_000;
/** How far the clock moves before the sweep (BENCH_SWEEP_HOURS, default 1: the hourly sweep's share). */
const SWEEP_MS = Number(process.env.BENCH_SWEEP_HOURS ?? 1) * HOUR_MS;
/** The lag probe's period (ms): each sample is this plus the delay, so it is taken off. */
const PROBE_MS = 5;

const config = loadConfig();
let clockOffset = 0;
const { db, dialect } = createDb(config.DATABASE_URL);
const base: AppBase = { config, db, dialect, bus: createBus(config), now: () => Date.now() + clockOffset };
await prepareDatabase(base);
const app = await buildApp(base, { logger: { level: config.LOG_LEVEL } });
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });

process.on('message', (message) => {
  if (message !== 'sweep') return;
  void sweep().then((answer) => process.send?.(answer));
});

async function sweep(): Promise<SweepAnswer> {
  await periodicSweepsIdle(app);
  clockOffset += SWEEP_MS;
  const lag = monitorEventLoopDelay({ resolution: PROBE_MS });
  lag.enable();
  // The probe measures from its first tick: a statement before it would go unseen.
  await sleep(4 * PROBE_MS);
  const started = performance.now();
  const deleted = await (base as AppContext).services.fleet.prune();
  const ms = performance.now() - started;
  // Every instance reads its totals again when told of the sweep: that is part of it.
  await sleep(500);
  lag.disable();
  return { type: 'sweep', deleted, ms, lagMaxMs: Math.max(0, lag.max / 1e6 - PROBE_MS) };
}

async function shutdown(): Promise<void> {
  await app.close();
  await base.bus.close();
  await db.destroy();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
// The benchmark died without stopping us: do not outlive it.
process.once('disconnect', () => void shutdown());
