import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clockTime } from '../../common/order-texts.ts';
import { loginThroughApi, newPage, useBrowserSuite } from './harness.ts';
import { startInProcessServer } from './in-process-server.ts';

const BOT_TOKEN = 'e2e-bot-token-fleet-states-0123456789';
const BOTS = ['ghost-01', 'ghost-02', 'ghost-07'];

/*
 * A dead fleet must not look healthy (issue 38): bots report, then fall silent, on a server whose
 * clock the test moves; every place that says the fleet's state says it, and says LIVE again once
 * the bots are back.
 */
describe("the fleet's state in the browser", () => {
  const suite = useBrowserSuite({ BOT_TOKEN }, (env) => startInProcessServer(env));

  /** One bot's report through POST /api/bot/events (no hop: the trend has no data). */
  async function report(ghostId: string) {
    const res = await fetch(`${suite.server.url}/api/bot/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ghostId,
        events: [{ type: 'scanner_status', payload: { status: 'scanning' } }],
      }),
    });
    expect(res.status, await res.text()).toBe(200);
  }

  async function everyBotReports() {
    for (const ghostId of BOTS) {
      suite.server.clock.advance(1000);
      await report(ghostId);
    }
  }

  const sidebarBadge = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: /Live Monitoring/ })
      .getByTestId('fleet-state-badge');
  const networkStatus = (page: Page) =>
    page.getByText('Network Status', { exact: true }).locator('xpath=following-sibling::*[1]');
  const landingBadges = async (page: Page) => {
    await page.goto('/');
    await page.getByText(/\d+\/\d+ slots available/).waitFor();
    return page.locator('header').first().innerText();
  };

  it('shows a silent fleet as down everywhere, naming the last bot heard, and LIVE again when bots report', async () => {
    // The prerendered landing page claims nothing before its data.
    const html = await (await fetch(`${suite.server.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('Checking the network status');
    expect(html).not.toMatch(/>LIVE</);

    await everyBotReports();
    const { page } = suite;
    await loginThroughApi(page);
    await page.goto('/admin/live-monitoring');
    await expect.poll(() => sidebarBadge(page).innerText(), { timeout: 15_000 }).toBe('LIVE');
    await expect.poll(() => networkStatus(page).innerText()).toBe('No data');
    expect(await page.getByRole('alert', { name: 'The bot network is down' }).count()).toBe(0);
    const visitor = (await newPage(suite.browser, suite.server.url)).page;
    expect(await landingBadges(visitor)).toMatch(/LIVE\s+ACTIVE/);

    // The simulator stops: nothing more from any bot, two minutes on the server's clock.
    const { lastHeardAt } = suite.server.ctx.services.fleet.state.hearing(suite.server.clock.now());
    suite.server.clock.advance(2 * 60_000);
    await expect.poll(() => sidebarBadge(page).innerText(), { timeout: 10_000 }).toBe('DOWN');
    const banner = page.getByRole('alert', { name: 'The bot network is down' });
    await expect
      .poll(() => banner.innerText())
      .toContain(
        `No bot has reported for 2 min — last heard ${clockTime(new Date(lastHeardAt ?? 0).toISOString())} from ghost-07`,
      );
    expect(await networkStatus(page).innerText()).toBe('No data');
    // Another screen says it too.
    await page.getByRole('link', { name: /^Dashboard/ }).click();
    await expect
      .poll(() => page.getByRole('group', { name: 'Scanner Fleet' }).innerText(), { timeout: 10_000 })
      .toMatch(/DOWN[\s\S]*No bot has reported for 2 min/);
    const offline = await landingBadges(visitor);
    expect(offline).toContain('OFFLINE');
    expect(offline).not.toMatch(/LIVE|ACTIVE/);

    // The bots are back.
    await everyBotReports();
    await expect.poll(() => sidebarBadge(page).innerText(), { timeout: 10_000 }).toBe('LIVE');
    await expect
      .poll(() => page.getByRole('group', { name: 'Scanner Fleet' }).innerText())
      .toContain('3 of 3 bots reporting');
    expect(await landingBadges(visitor)).toMatch(/LIVE\s+ACTIVE/);
  });
});
