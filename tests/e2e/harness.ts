import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ORDER_PAGE_PREFIX } from '../../common/order-texts.ts';
import { CHROMIUM_ARGS, findOrInstallChromium } from './chromium.ts';

export const E2E_ADMIN_SECRET = 'e2e-admin-secret';

/**
 * An order page (`/order/{id}`) as the page-by-page tests visit it: no secret in the fragment, so it
 * asks the server nothing and shows how to open an order's link (tests/e2e/payments.e2e.ts walks a real one).
 */
export const ORDER_PAGE_EXAMPLE = `${ORDER_PAGE_PREFIX}e2eExampleOrder1`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Where the built app is: `dist/` by default; `E2E_DIST` points the browser tests at another build
 * (so two builds can be tested side by side without overwriting each other). A build outside the
 * checkout finds its packages through a link beside it: `ln -s "$PWD/node_modules" $E2E_DIST/`.
 */
export const E2E_DIST = process.env.E2E_DIST ?? 'dist';

/**
 * Starts the built server (dist/) on a free loopback port with an empty SQLite database of its own.
 * `env.PORT` and `env.DATABASE_URL` choose them instead (to start it again after a stop, as after an outage).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-'));
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(E2E_DIST, 'server/main.js')], {
    env: {
      ...process.env,
      WEB_DIST: join(E2E_DIST, 'web'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'scanline.db'),
      BOT_TOKEN_FILE: join(dir, 'bot-token'),
      ADMIN_SECRET: E2E_ADMIN_SECRET,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      // Browser tests sign in and redeem many times a minute from one address.
      RATE_LIMIT_LOGIN: '1000',
      RATE_LIMIT_REDEEM: '1000',
      RATE_LIMIT_CHALLENGE: '1000',
      RATE_LIMIT_LOADER: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Scanline is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findOrInstallChromium(), args: CHROMIUM_ARGS });
}

/** Each context's app origin (from its baseURL), for the API calls made from node on a page's behalf. */
const contextOrigins = new WeakMap<BrowserContext, string>();

/** A fresh browser context that may use the clipboard. */
export async function newPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  contextOrigins.set(context, new URL(baseURL).origin);
  return { context, page: await context.newPage() };
}

/**
 * Headers that make a `page.request` call come from the app's own page: admin changes need the app's
 * Origin (server/plugins/origin-check.ts). Chromium adds it to the pages' own fetches; Playwright's
 * API requests, sent from node, do not.
 */
export function sameOriginHeaders(page: Page): { origin: string } {
  const origin = contextOrigins.get(page.context());
  if (!origin) throw new Error('sameOriginHeaders: the page was not opened by newPage()');
  return { origin };
}

/** Signs in through the login form and waits for the dashboard. */
export async function loginAsAdmin(page: Page): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Admin Secret').fill(E2E_ADMIN_SECRET);
  await page.getByRole('button', { name: 'Access Dashboard' }).click();
  await page.waitForURL('**/admin/dashboard');
}

/** What a browser suite's hooks fill in: `server` and `browser` once, `context` and `page` per test. */
export interface BrowserSuite<Server extends RunningServer = RunningServer> {
  server: Server;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Registers the hooks every browser suite needs, in the calling describe block: one built server
 * (with its own empty database) and one Chromium for the file, a fresh context and page per test,
 * all closed afterwards. Read the fields inside tests and hooks, not at collection time: the hooks
 * fill them in. `serverEnv` adds to the server's environment (see startServer); `start` starts
 * another kind of server with it (in-process-server.ts: one whose clock the test moves).
 */
export function useBrowserSuite(serverEnv?: Record<string, string>): BrowserSuite;
export function useBrowserSuite<Server extends RunningServer>(
  serverEnv: Record<string, string>,
  start: (env: Record<string, string>) => Promise<Server>,
): BrowserSuite<Server>;
export function useBrowserSuite(
  serverEnv: Record<string, string> = {},
  start: (env: Record<string, string>) => Promise<RunningServer> = startServer,
): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([start(serverEnv), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  beforeEach(async () => {
    ({ context: suite.context, page: suite.page } = await newPage(suite.browser, suite.server.url));
  });
  afterEach(async () => {
    await suite.context.close();
  });
  return suite;
}

/** A toast's title (Radix also announces it off-screen, hence first()). */
export function toastTitled(page: Page, title: string) {
  return page.getByText(title, { exact: true }).first();
}

/** Signs the page's browser context in through the API: page.request shares the context's cookies. */
export async function loginThroughApi(page: Page): Promise<void> {
  const res = await page.request.post('/api/admin/login', {
    data: { adminSecret: E2E_ADMIN_SECRET },
    headers: sameOriginHeaders(page),
  });
  expect(res.ok()).toBe(true);
}

/** Signs in through the API and saves the slot capacity and payment wallets. */
export async function configureSystem(
  page: Page,
  totalSlots: number,
  paymentWallets: Record<string, string>,
): Promise<void> {
  await loginThroughApi(page);
  const res = await page.request.put('/api/admin/system-configuration', {
    data: { totalSlots, paymentWallets },
    headers: sameOriginHeaders(page),
  });
  expect(res.status()).toBe(200);
}
