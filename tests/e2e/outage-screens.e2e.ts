import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  launchBrowser,
  loginAsAdmin,
  newPage,
  type RunningServer,
  startServer,
  useBrowserSuite,
} from './harness.ts';

const UNREACHABLE = 'Server unreachable — retrying…';
const WAITING = 'Waiting for the server to load this screen…';

/** Records, from the page's first script on, whether "Page Error" was ever shown (even briefly). */
async function watchForPageError(page: Page): Promise<() => Promise<boolean>> {
  await page.addInitScript(() => {
    const seen = () => {
      if (document.body?.textContent?.includes('Page Error'))
        (window as { sawPageError?: boolean }).sawPageError = true;
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => Boolean((window as { sawPageError?: boolean }).sawPageError));
}

function sidebarLink(page: Page, name: RegExp) {
  return page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name });
}

describe('admin screens first opened while the server is down', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-outage-'));
    // The same port and database for both runs, so the page's session and origin outlive the outage.
    env = { PORT: String(await freePort()), DATABASE_URL: join(dir, 'scanline.db') };
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens Server Pool and AI Debugging with only the banner, and fills them in once the server is back', async () => {
    const { page } = await newPage(browser, server.url);
    const sawPageError = await watchForPageError(page);
    await loginAsAdmin(page);
    await page.getByRole('group', { name: 'Total Keys' }).waitFor();
    // The shell fetches every screen's code ahead once it has loaded: let that finish, as it does
    // for a user who has had the console open for a moment, before the server goes away.
    await page.waitForLoadState('networkidle');

    await server.stop();
    await sidebarLink(page, /Server Pool/).click();
    await page.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor();
    await page.getByRole('heading', { name: 'Server Pool Monitor' }).waitFor();
    await sidebarLink(page, /AI Debugging/).click();
    await page.getByRole('heading', { name: 'AI System Debugging' }).waitFor();

    server = await startServer(env);
    await page
      .getByRole('alert')
      .filter({ hasText: UNREACHABLE })
      .waitFor({ state: 'detached', timeout: 15_000 });
    await sidebarLink(page, /Server Pool/).click();
    await page.getByRole('group', { name: 'Total Servers' }).waitFor();
    expect(await page.getByRole('group', { name: 'Total Servers' }).innerText()).toContain('0');
    expect(await sawPageError()).toBe(false);
  });
});

describe('an admin screen whose code could not be fetched', () => {
  const suite = useBrowserSuite();

  it('waits quietly in place of the screen and opens it on its own once the file can be fetched', async () => {
    const { page } = suite;
    const sawPageError = await watchForPageError(page);
    // The network drops this one file (from the console's start, so fetching ahead fails too).
    const chunk = '**/assets/server-pool-*.js';
    await page.route(chunk, (route) => route.abort('connectionrefused'));
    await loginAsAdmin(page);
    await sidebarLink(page, /Server Pool/).click();
    await page.getByText(WAITING).waitFor();

    await page.unroute(chunk);
    // Tried again every 5 s while waiting.
    await page.getByRole('heading', { name: 'Server Pool Monitor' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText(WAITING).count()).toBe(0);
    expect(await sawPageError()).toBe(false);
  });
});
