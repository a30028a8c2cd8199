import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import type { AppBase } from './context.ts';
import { createDb } from './db/index.ts';
import { exitGracefullyOnSignals } from './operations/shutdown.ts';
import { createBus } from './realtime/create-bus.ts';
import { prepareDatabase } from './startup.ts';

const config = loadConfig();
// Until the app's logger exists, a lost database connection is reported on stderr.
let reportConnectionError = (error: Error) => console.warn(`database connection lost: ${error.message}`);
const { db, dialect } = createDb(config.DATABASE_URL, {
  onConnectionError: (error) => reportConnectionError(error),
});
const ctx: AppBase = {
  config,
  db,
  dialect,
  bus: createBus(config),
  now: Date.now,
};
const { generatedSecret, botTokenFile } = await prepareDatabase(ctx);
const app = await buildApp(ctx, { logger: { level: config.LOG_LEVEL } });
reportConnectionError = (err) => app.log.warn({ err }, 'database connection lost; the pool opens a new one');

await app.listen({ port: config.PORT, host: config.HOST });
const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
console.log(`\nScanline is running at http://${shownHost}:${config.PORT}  (database: ${dialect})`);
if (generatedSecret) {
  console.log(
    '\nNo ADMIN_SECRET was set, so one was generated. It is shown only this once; only its hash is stored:',
  );
  console.log(`\n    Admin secret: ${generatedSecret}\n`);
  console.log('Sign in at /admin/login. Set ADMIN_SECRET to choose your own.\n');
}
if (botTokenFile) {
  console.log(
    `No BOT_TOKEN was set, so a bot token was generated and written to ${botTokenFile} (mode 0600).\n`,
  );
}

// SIGTERM and SIGINT: stop taking work, finish it, flush, exit (server/operations/shutdown.ts).
exitGracefullyOnSignals(app, ctx);
