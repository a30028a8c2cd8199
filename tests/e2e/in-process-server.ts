import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppBase, AppContext } from '../../server/context.ts';
import { createDb } from '../../server/db/index.ts';
import { shutDown } from '../../server/operations/shutdown.ts';
import { createLocalBus } from '../../server/realtime/bus.ts';
import { prepareDatabase } from '../../server/startup.ts';
import { E2E_ADMIN_SECRET, E2E_DIST, type RunningServer } from './harness.ts';

/*
 * The server in the test's own process, for the browser tests that move time: the same app main.ts
 * builds (buildApp, from the sources) serving the built web app (dist/web), with a clock the test
 * holds instead of Date.now. Everything else is as startServer has it (an empty SQLite file of its
 * own, the e2e admin secret, the raised rate limits). A test that needs no clock uses startServer:
 * the built server in its own process, as an operator runs it.
 */

/**
 * A clock that runs with the wall clock and that the test can move forward (never back): the
 * server reads it as ctx.now, so "a minute later" for its scheduled work (the once-a-minute
 * analysis judging a complete minute) takes no minute of waiting.
 */
export interface TestClock {
  now(): number;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Moves the clock forward to `at` (epoch ms); an `at` in its past is refused. */
  advanceTo(at: number): void;
}

export function runningClock(): TestClock {
  let offset = 0;
  const clock: TestClock = {
    now: () => Date.now() + offset,
    advance(ms) {
      if (ms < 0) throw new Error(`the test clock only moves forward (asked to move ${ms} ms)`);
      offset += ms;
    },
    advanceTo(at) {
      clock.advance(at - clock.now());
    },
  };
  return clock;
}

export interface InProcessServer extends RunningServer {
  app: FastifyInstance;
  /** The app's context: its database, configuration and services (the analysis runs, the fleet). */
  ctx: AppContext;
  clock: TestClock;
}

/**
 * Starts the app in this process on a free loopback port, serving the built web app, with `clock`
 * as its time. `env` adds to (or overrides) its configuration, as startServer's does; a
 * `DATABASE_URL` of the caller's is used and left in place.
 */
export async function startInProcessServer(
  env: Record<string, string> = {},
  clock: TestClock = runningClock(),
): Promise<InProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-in-process-'));
  const config = loadConfig({
    WEB_DIST: join(E2E_DIST, 'web'),
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, 'scanline.db'),
    BOT_TOKEN_FILE: join(dir, 'bot-token'),
    ADMIN_SECRET: E2E_ADMIN_SECRET,
    LOG_LEVEL: 'warn',
    // Browser tests sign in and redeem many times a minute from one address.
    RATE_LIMIT_LOGIN: '1000',
    RATE_LIMIT_REDEEM: '1000',
    RATE_LIMIT_CHALLENGE: '1000',
    RATE_LIMIT_LOADER: '1000',
    ...env,
  });
  const { db, dialect } = createDb(config.DATABASE_URL);
  const base: AppBase = { config, db, dialect, bus: createLocalBus(), now: clock.now };
  await prepareDatabase(base);
  const app = await buildApp(base, { logger: { level: config.LOG_LEVEL } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    ctx: base as AppContext,
    clock,
    async stop() {
      // The graceful stop main.ts does on SIGTERM: sockets told 1012, the writer flushed, all closed.
      await shutDown(app, base, { signal: 'test', timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
