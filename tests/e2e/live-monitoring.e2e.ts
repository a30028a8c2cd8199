import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { parsePetValue } from '../../common/pet-value.ts';
import { launchBrowser, loginThroughApi, newPage, type RunningServer, startServer } from './harness.ts';

const BOT_TOKEN = 'e2e-bot-token-live-monitoring-0123456789';

/** The Live Monitoring page against the built server, with 70 simulated bots hopping and finding pets. */
describe('Live Monitoring in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let simulator: Simulator;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ BOT_TOKEN }), launchBrowser()]);
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: 70,
        hopIntervalMs: 1_000,
        discoveryRate: 60,
        failureRate: 0.2,
        url: server.url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      Math.random,
      () => {},
    );
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

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^live-monitoring-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await file.path())!, 'utf8'));
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
});
