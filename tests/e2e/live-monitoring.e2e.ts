import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { parsePetValue } from '../../common/pet-value.ts';
import { launchBrowser, loginThroughApi, newPage, type RunningServer, startServer } from './harness.ts';

const BOT_TOKEN = 'e2e-bot-token-live-monitoring-0123456789';

function simulatorFor(url: string): Simulator {
  return new Simulator(
    {
      ...DEFAULT_OPTIONS,
      placeIds: [...DEFAULT_OPTIONS.placeIds],
      bots: 70,
      hopIntervalMs: 1_000,
      discoveryRate: 60,
      failureRate: 0.2,
      url,
      token: BOT_TOKEN,
      statusIntervalMs: 0,
    },
    Math.random,
    () => {},
  );
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Clicks Export Data and returns the parsed file. */
async function exportedData(page: Page) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Data' }).click();
  const file = await download;
  return { name: file.suggestedFilename(), data: JSON.parse(readFileSync((await file.path())!, 'utf8')) };
}

/** The Live Monitoring page against the built server, with 70 simulated bots hopping and finding pets. */
describe('Live Monitoring in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let simulator: Simulator;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ BOT_TOKEN }), launchBrowser()]);
    simulator = simulatorFor(server.url);
    await simulator.start();
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    ({ context, page } = await newPage(browser, server.url));
    await loginThroughApi(page);
  });
  afterEach(async () => {
    await context.close();
  });

  it('shows the 70 bots, hops in the feed and their scanner cards', async () => {
    await page.goto('/admin/live-monitoring');
    await page.getByRole('heading', { name: 'Live Monitoring Dashboard' }).waitFor();
    await expect
      .poll(() => page.getByRole('group', { name: 'Active Bots' }).innerText(), { timeout: 15_000 })
      .toContain('of 70 total bots');
    await page
      .getByText(/^Bot ghost-\d\d (successfully hopped to new server \(\d+ms\)|failed to hop: )/)
      .first()
      .waitFor();
    expect(await page.getByText(/WebSocket connection lost/).count()).toBe(0);
    // The performance card times the tab's renders in the production build too.
    const renderCount = page.getByText('Render Count').locator('xpath=following-sibling::*[1]');
    await expect.poll(async () => Number(await renderCount.innerText())).toBeGreaterThan(0);

    await page.getByRole('tab', { name: 'Scanner Status' }).click();
    await expect.poll(() => page.getByRole('group', { name: /^Bot ghost-\d\d$/ }).count()).toBe(70);
  });

  it('works when opened from another screen, on a socket already connected', async () => {
    await page.goto('/admin/dashboard');
    await page
      .getByText(/clients? connected/)
      .first()
      .waitFor({ timeout: 15_000 });
    await page
      .getByRole('link', { name: /Live Monitoring/ })
      .first()
      .click();
    await page
      .getByText(/^Bot ghost-\d\d (successfully hopped|failed to hop)/)
      .first()
      .waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Scanner Status' }).click();
    await expect.poll(() => page.getByRole('group', { name: /^Bot ghost-\d\d$/ }).count()).toBe(70);
  });

  it('shows discoveries with their value badges and exports what the spec lists', async () => {
    await page.goto('/admin/live-monitoring');
    await page.getByRole('tab', { name: 'Pet Discoveries' }).click();
    await page.getByRole('group').filter({ hasText: 'Discovered' }).first().waitFor({ timeout: 15_000 });

    const { name, data } = await exportedData(page);
    expect(name).toMatch(/^live-monitoring-\d{4}-\d{2}-\d{2}\.json$/);
    expect(Object.keys(data)).toEqual([
      'timestamp',
      'networkStats',
      'scanners',
      'petDiscoveries',
      'liveEvents',
    ]);
    expect(data.scanners).toHaveLength(70);
    expect(data.liveEvents.length).toBeGreaterThan(0);
    expect(data.liveEvents.length).toBeLessThanOrEqual(50);
    expect(data.petDiscoveries.length).toBeGreaterThan(0);

    // Badge colours follow the value: purple above 5M, blue above 1M, plain otherwise.
    const badges = await page
      .getByRole('group')
      .filter({ hasText: 'Discovered' })
      .locator('span.rounded-full')
      .evaluateAll((spans) => spans.map((s) => [s.textContent ?? '', s.className] as const));
    expect(badges.length).toBeGreaterThan(0);
    for (const [value, className] of badges) {
      const n = parsePetValue(value);
      const colour = n > 5_000_000 ? 'bg-purple-600' : n > 1_000_000 ? 'bg-blue-600' : 'bg-secondary';
      expect(className, value).toContain(colour);
    }
  });

  it('narrows each list with its filters, and the feed footer follows', async () => {
    await page.goto('/admin/live-monitoring');
    const footer = page.getByText(/^Showing \d+ of \d+ events$/);
    await expect
      .poll(async () => shownOf(await footer.innerText()).of, { timeout: 15_000 })
      .toBeGreaterThan(50);
    // The feed is random: wait for a failed hop (a Warning row) before freezing it.
    await choose(page, 'Filter events by severity', 'Warning');
    await expect
      .poll(async () => shownOf(await footer.innerText()).shown, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await choose(page, 'Filter events by severity', 'All Levels');
    // Frozen lists, so counts can be compared.
    await page.getByRole('button', { name: 'Pause Feed' }).click();
    const all = shownOf(await footer.innerText());
    expect(all.shown).toBe(all.of);
    const feedRows = page.getByRole('list', { name: 'Live Event Feed' }).getByRole('listitem');

    await choose(page, 'Filter events by severity', 'Warning');
    const warnings = shownOf(await footer.innerText());
    expect(warnings.of).toBe(all.of);
    expect(warnings.shown).toBeGreaterThan(0);
    expect(warnings.shown).toBeLessThan(all.shown);
    for (const text of await feedRows.allInnerTexts()) expect(text).toMatch(/^Warning/);

    await choose(page, 'Filter events by severity', 'All Levels');
    await choose(page, 'Filter events by type', 'Pet Discoveries');
    const finds = shownOf(await footer.innerText());
    expect(finds.shown).toBeGreaterThan(0);
    expect(finds.shown).toBeLessThan(all.shown);
    for (const text of await feedRows.allInnerTexts()) expect(text).toContain('Pet Discoveries');

    await choose(page, 'Filter events by type', 'All Types');
    await page.getByRole('textbox', { name: 'Search events' }).fill('ghost-07');
    await expect.poll(async () => shownOf(await footer.innerText()).shown).toBeLessThan(all.shown);
    for (const text of await feedRows.allInnerTexts()) expect(text).toContain('ghost-07');

    const hopRows = page.getByRole('list', { name: 'Server hops' }).getByRole('listitem');
    await choose(page, 'Filter hops by outcome', 'Failed');
    expect(await hopRows.count()).toBeGreaterThan(0);
    for (const text of await hopRows.allInnerTexts()) expect(text).toContain('Failed');
    await choose(page, 'Filter hops by outcome', 'All Hops');
    await choose(page, 'Filter hops by reason', 'Auto Scan');
    for (const text of await hopRows.allInnerTexts()) expect(text).toContain('Auto Scan');
    await page.getByRole('textbox', { name: 'Filter hops by bot ID' }).fill('ghost-07');
    for (const label of await hopRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')))) {
      expect(label).toBe('Hop by bot ghost-07');
    }

    await page.getByRole('tab', { name: 'Pet Discoveries' }).click();
    const cards = page.getByRole('group').filter({ hasText: 'Discovered' });
    const everyCard = await cards.count();
    await choose(page, 'Filter by value', '$5M+');
    const premium = await cards.count();
    expect(premium).toBeLessThan(everyCard);
    for (const value of await cards.locator('span.rounded-full').allInnerTexts()) {
      expect(parsePetValue(value)).toBeGreaterThanOrEqual(5_000_000);
    }
    await choose(page, 'Filter by value', 'All Values');
    const name = (await cards.first().getAttribute('aria-label')) ?? '';
    await page.getByRole('textbox', { name: 'Search pets by name or type' }).fill(name);
    // Search is a contains: 'Talpa Di Fero' also finds 'Candy Talpa Di Fero'.
    for (const label of await cards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) {
      expect(label?.toLowerCase()).toContain(name.toLowerCase());
    }

    await page.getByRole('tab', { name: 'Scanner Status' }).click();
    await choose(page, 'Filter by bot', /^Bot ghost-07 - /);
    await expect.poll(() => page.getByRole('group', { name: /^Bot ghost-\d\d$/ }).count()).toBe(1);
  });
});

/** The two figures of 'Showing X of Y events'. */
function shownOf(footer: string): { shown: number; of: number } {
  const [, shown, of] = /Showing (\d+) of (\d+) events/.exec(footer) ?? [];
  return { shown: Number(shown), of: Number(of) };
}

/** Picks an option of a labelled select (Radix: the trigger is a combobox, its items options). */
async function choose(page: Page, select: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: select }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('Live Monitoring across a server restart', () => {
  it('shows an outage banner while the server is down, then recovers without showing an event twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-restart-'));
    const port = await freePort();
    // The same port and database for both runs, so the page's session and origin outlive the restart.
    const env = { BOT_TOKEN, PORT: String(port), DATABASE_URL: join(dir, 'scanline.db') };
    const url = `http://127.0.0.1:${port}`;
    let [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
    let simulator = simulatorFor(url);
    try {
      const { page } = await newPage(browser, url);
      await loginThroughApi(page);
      await simulator.start();
      await page.goto('/admin/live-monitoring');
      // The page's red banner while only the socket is down; the shell's once it finds the whole
      // server unreachable (one banner at a time, never both).
      const banner = page
        .getByText(
          'WebSocket connection lost. Real-time data may not be current. The dashboard will automatically reconnect.',
        )
        .or(page.getByText('Server unreachable — retrying…'));
      await page
        .getByText(/^Bot ghost-\d\d (successfully hopped|failed to hop)/)
        .first()
        .waitFor({ timeout: 15_000 });
      expect(await banner.count()).toBe(0);

      await simulator.stop();
      await server.stop();
      await banner.waitFor({ timeout: 15_000 });
      expect(await banner.count()).toBe(1);

      server = await startServer(env);
      simulator = simulatorFor(url);
      await simulator.start();
      await banner.waitFor({ state: 'detached', timeout: 30_000 });

      const before = (await exportedData(page)).data.liveEvents[0]?.seq ?? 0;
      await expect
        .poll(async () => (await exportedData(page)).data.liveEvents[0]?.seq ?? 0, { timeout: 15_000 })
        .toBeGreaterThan(before);
      await page.getByRole('tab', { name: 'Pet Discoveries' }).click();
      // The bots hop at the server's configured pace (5 s by default): wait for a find.
      await expect
        .poll(async () => (await exportedData(page)).data.petDiscoveries.length, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const { data } = await exportedData(page);
      const ids = (list: Array<{ id: string }>) => list.map((e) => e.id);
      expect(new Set(ids(data.liveEvents)).size).toBe(data.liveEvents.length);
      expect(new Set(ids(data.petDiscoveries)).size).toBe(data.petDiscoveries.length);
    } finally {
      await simulator.stop();
      await browser.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
