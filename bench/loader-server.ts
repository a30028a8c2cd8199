/*
 * The server the loader benchmark measures, run as its own process (bench/loader.ts starts it) so
 * the load generator does not share its event loop. Configured through the environment like the
 * real server. It is the real app, built as server/main.ts
 * builds it, plus one route that exists only here: GET /bench/baseline answers the benchmark's
 * script from memory with no checks, the practical upper bound for the loader.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { AppBase } from '../server/context.ts';
import { createDb } from '../server/db/index.ts';
import { createBus } from '../server/realtime/create-bus.ts';
import { prepareDatabase } from '../server/startup.ts';
import { benchScriptContent } from './premium-script.ts';

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

const script = Buffer.from(benchScriptContent(), 'utf8');
// The same headers as the loader's answer, so the two differ only in the work behind them.
app.get('/bench/baseline', (_request, reply) =>
  reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(script),
);

await app.listen({ port: config.PORT, host: config.HOST });
// Tells bench/loader.ts (over the IPC channel it opened) where to send the load.
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
