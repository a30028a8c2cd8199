/*
 * The real server the realtime benchmark measures, in its own process (bench/realtime.ts starts
 * it), built as server/main.ts builds it. Besides listening it answers one IPC question, 'usage':
 * its CPU time and RSS, so the benchmark can compare them with the bare baseline's.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { AppBase } from '../server/context.ts';
import { createDb } from '../server/db/index.ts';
import { createBus } from '../server/realtime/create-bus.ts';
import { prepareDatabase } from '../server/startup.ts';
import { answerUsageQueries } from './realtime-usage.ts';

const config = loadConfig();
const { db, dialect } = createDb(config.DATABASE_URL);
const ctx: AppBase = {
  config,
  db,
  dialect,
  bus: createBus(config),
  now: Date.now,
};
await prepareDatabase(ctx);
const app = await buildApp(ctx, { logger: { level: config.LOG_LEVEL } });
await app.listen({ port: config.PORT, host: config.HOST });
answerUsageQueries();
process.send?.({ port: (app.server.address() as AddressInfo).port });

async function shutdown(): Promise<void> {
  await app.close();
  await ctx.bus.close();
  await db.destroy();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
// The benchmark died without stopping us: do not outlive it.
process.once('disconnect', () => void shutdown());
