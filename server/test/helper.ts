import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { type BuildAppOptions, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppBase, AppContext } from '../context.ts';
import { createDb, type Db, type DialectName, type ObservedDbOptions } from '../db/index.ts';
import { createBus } from '../realtime/create-bus.ts';
import { ensureSecrets, prepareDatabase } from '../startup.ts';
import { cloneSqlite, createPostgresDatabase, urlForDatabase } from './db-template.ts';

/** The bot token every test app accepts (its BOT_TOKEN). */
export const TEST_BOT_TOKEN = 'test-bot-token';

export const TEST_ADMIN_SECRET = 'test-admin-secret';

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). TEST_DIALECTS narrows
 * the list (`npm test` runs the SQLite tier and the PostgreSQL tier one after the other).
 */
export const DIALECTS: DialectName[] = (
  process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']
).filter(
  (d) => !process.env.TEST_DIALECTS || process.env.TEST_DIALECTS.split(',').includes(d),
) as DialectName[];

/** A clock tests can move. */
export function fakeClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    set: (ms: number) => {
      t = ms;
    },
  };
}

/**
 * The app's own origin as light-my-request addresses it (`Host: localhost:80`): what a browser on
 * the app's own page sends as `Origin`.
 */
export const OWN_ORIGIN = 'http://localhost';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Makes `app.inject` send state-changing calls the way the app's own pages do: a browser adds
 * `Origin` to every POST, PUT, PATCH and DELETE, so one without `Origin` or `Referer` gets the app's
 * own. A test playing another page passes its own `origin`/`referer`; `injectBare` sends exactly the
 * headers it is given (a non-browser client). Returns that bare inject.
 */
function sendLikeOwnPages(app: FastifyInstance): TestApp['injectBare'] {
  const original = app.inject.bind(app) as (options?: InjectOptions | string) => unknown;
  const withOwnOrigin = (options: InjectOptions): InjectOptions => {
    const method = (options.method ?? 'GET').toUpperCase();
    const named = Object.keys(options.headers ?? {}).map((h) => h.toLowerCase());
    if (SAFE_METHODS.has(method) || named.includes('origin') || named.includes('referer')) return options;
    return { ...options, headers: { ...options.headers, origin: OWN_ORIGIN } };
  };
  app.inject = ((options?: InjectOptions | string) =>
    original(typeof options === 'object' ? withOwnOrigin(options) : options)) as FastifyInstance['inject'];
  return (options) => original(options) as Promise<LightMyRequestResponse>;
}

export interface TestApp {
  /** The real app; its `inject` sends state-changing calls with the app's own Origin (see OWN_ORIGIN). */
  app: FastifyInstance;
  /** `app.inject` exactly as given, no Origin added: what a non-browser client sends. */
  injectBare(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  ctx: AppContext;
  clock: ReturnType<typeof fakeClock>;
  /** PostgreSQL only: the schema holding this app's tables. */
  schema?: string;
  /** PostgreSQL only: this app's own database (a clone of the template), and its URL. */
  database?: string;
  databaseUrl?: string;
  /** Logs in and returns the Cookie header value for admin calls. */
  adminCookie(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A whole app on a database of its own, cloned from a migrated and seeded template (db-template.ts):
 * an in-memory SQLite database, or a PostgreSQL database dropped again on close. `joinSchemaOf`
 * makes a second instance on the first one's PostgreSQL database (the first one drops it);
 * `env.REDIS_URL` gives the app a Redis bus.
 */
export async function buildTestApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  options: {
    joinSchemaOf?: TestApp;
    app?: BuildAppOptions;
    /** PostgreSQL: where the app connects instead of TEST_DATABASE_URL (a proxy in front of it). */
    databaseUrl?: string;
    /** Told every statement the app's database is sent (round-trip counts). */
    onStatement?: ObservedDbOptions['onStatement'];
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    ADMIN_SECRET: TEST_ADMIN_SECRET,
    // A known bot token, so no test writes a generated one into ./data (BOT_TOKEN: '' generates one).
    BOT_TOKEN: TEST_BOT_TOKEN,
    BOT_TOKEN_FILE: join(tmpdir(), `scanline-test-bot-token-${randomBytes(6).toString('hex')}`),
    WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'silent',
    // Operator alerts look once when the app is ready; a test that wants more looks drives them itself.
    ALERT_CHECK_MS: '3600000',
    ...env,
  });
  const clock = fakeClock();
  // The template holds the shipped scripts; a test of its own SCRIPTS_DIR seeds a fresh database.
  const fromTemplate = env.SCRIPTS_DIR === undefined;
  let dropDatabase = async () => {};
  let database: string | undefined;
  let databaseUrl: string | undefined;
  let handle: ReturnType<typeof createDb>;
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    database = options.joinSchemaOf?.database;
    if (!database) {
      const created = await createPostgresDatabase(url, { config, now: clock.now }, fromTemplate);
      database = created.database;
      dropDatabase = created.drop;
    }
    databaseUrl = urlForDatabase(url, database);
    // Named after its database, so an outage test can end exactly this app's connections.
    handle = createDb(urlForDatabase(options.databaseUrl ?? url, database), {
      applicationName: database,
      // An outage test cuts connections on purpose: nothing to warn about.
      ...(options.databaseUrl ? { onConnectionError: () => {} } : {}),
      onStatement: options.onStatement,
    });
  } else {
    const observed = { onStatement: options.onStatement };
    handle = fromTemplate
      ? await cloneSqlite({ config, now: clock.now }, observed)
      : createDb(':memory:', observed);
  }
  const base: AppBase = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    bus: createBus(config),
    now: clock.now,
  };
  // A clone of the template needs only its secrets; a second instance starts as a restart does.
  if (fromTemplate && !options.joinSchemaOf) await ensureSecrets(base);
  else await prepareDatabase(base);
  const app = await buildApp(base, options.app);
  // buildApp has given it its services.
  const ctx = base as AppContext;
  await app.ready();
  const injectBare = sendLikeOwnPages(app);
  return {
    app,
    injectBare,
    ctx,
    clock,
    ...(database ? { schema: 'public', database, databaseUrl } : {}),
    async adminCookie() {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { adminSecret: TEST_ADMIN_SECRET },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      const cookie = res.cookies.find((c) => c.name === 'scanline_session');
      if (!cookie) throw new Error('login set no session cookie');
      return `${cookie.name}=${cookie.value}`;
    },
    async close() {
      await app.close();
      await ctx.bus.close();
      await handle.db.destroy();
      await dropDatabase();
    },
  };
}

/** A migrated, seeded database with no app on it, for tests of a part that takes `db` alone. */
export async function openTestDatabase(
  dialect: DialectName,
  observed: ObservedDbOptions = {},
): Promise<{ db: Db; drop(): Promise<void> }> {
  const template = { config: loadConfig({}), now: fakeClock().now };
  if (dialect === 'sqlite') {
    const { db } = await cloneSqlite(template, observed);
    return { db, drop: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const created = await createPostgresDatabase(url, template, true);
  const { db } = createDb(urlForDatabase(url, created.database), observed);
  return {
    db,
    drop: async () => {
      await db.destroy();
      await created.drop();
    },
  };
}

/** What `useTestApp`'s hooks fill in before each test: the test's app, plus what the options asked for. */
export interface TestAppSuite extends TestApp {
  /** With `signIn`: the admin session's Cookie header value. */
  cookie: string;
  /** With `listen`: the admin socket's URL on the app's loopback port. */
  socketUrl: string;
}

/**
 * Registers the hooks every API suite needs, in the calling describe block: a fresh app on an empty
 * database of the given dialect before each test (`signIn` also logs the admin in; `listen` also
 * opens a loopback port for real sockets; `env` adds configuration such as SCRIPTS_DIR), closed
 * after it. Read the fields inside tests and hooks, not at collection time: the hooks fill them in.
 */
export function useTestApp(
  dialect: DialectName,
  options: { signIn?: boolean; listen?: boolean; env?: Record<string, string> } = {},
): TestAppSuite {
  const suite = {} as TestAppSuite;
  // Closed by afterEach; kept apart from `suite` so a build that failed never closes the previous app again.
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await buildTestApp(dialect, options.env);
    Object.assign(suite, current);
    if (options.signIn) suite.cookie = await suite.adminCookie();
    if (options.listen) {
      await suite.app.listen({ port: 0, host: '127.0.0.1' });
      suite.socketUrl = `ws://127.0.0.1:${(suite.app.server.address() as AddressInfo).port}/ws`;
    }
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return suite;
}
