import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import type { AppBase } from './context.ts';
import { createDb } from './db/index.ts';
import { openLogOutput } from './operations/log-output.ts';
import { exitGracefullyOnSignals } from './operations/shutdown.ts';
import { adminSecretBanner, settingsForTheLog } from './operations/start-notices.ts';
import { createBus } from './realtime/create-bus.ts';
import { prepareDatabase } from './startup.ts';

const config = loadConfig();
// Readable lines on a terminal, JSON lines otherwise (LOG_FORMAT; docs/operations.md, "Logs").
const logOutput = openLogOutput(config.LOG_FORMAT);
// Until the app's logger exists, a lost database connection is reported on stderr.
let reportConnectionError = (error: Error) => console.warn(`database connection lost: ${error.message}`);
const { db, dialect } = createDb(config.DATABASE_URL, {
  poolSize: config.DATABASE_POOL_SIZE,
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
const app = await buildApp(ctx, {
  logger: { level: config.LOG_LEVEL, ...(logOutput.stream ? { stream: logOutput.stream } : {}) },
});
if (logOutput.note) app.log.warn(logOutput.note);
reportConnectionError = (err) => app.log.warn({ err }, 'database connection lost; the pool opens a new one');

await app.listen({ port: config.PORT, host: config.HOST });
const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
const origin = `http://${shownHost}:${config.PORT}`;
app.log.info({ settings: settingsForTheLog(config, dialect, logOutput.format) }, 'Scanline started');
// Plain lines on stdout at every LOG_LEVEL: what a person (and a script waiting for the server) looks for.
console.log(`\nScanline is running at ${origin}  (database: ${dialect})`);
if (generatedSecret) {
  process.stdout.write(adminSecretBanner(generatedSecret, `${origin}/admin/login`));
  app.log.warn(
    'No ADMIN_SECRET was set: one was generated and printed once on stdout, in a framed block (only its hash is stored)',
  );
}
if (botTokenFile) {
  app.log.info(
    `No BOT_TOKEN was set, so a bot token was generated and written to ${botTokenFile} (mode 0600)`,
  );
}

// SIGTERM and SIGINT: stop taking work, finish it, flush, exit (server/operations/shutdown.ts).
exitGracefullyOnSignals(app, ctx);
