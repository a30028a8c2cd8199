import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { launchBrowser, loginThroughApi, newPage, sameOriginHeaders, startServer } from './harness.ts';

/*
 * Live Monitoring when the fleet is not simply live, against the built server: opened while the
 * server is down (the issue saw Active Bots 0, Network Health 85%, Total Hops 0 and "Improving" under
 * two stacked banners), and under an emergency stop (it showed 0 bots, 0% and "Improving", and the
 * sidebar still said LIVE).
 */

const CONNECTION_LOST =
  'WebSocket connection lost. Real-time data may not be current. The dashboard will automatically reconnect.';
const SERVER_UNREACHABLE = 'Server unreachable — retrying…';

/** The big figure of a stat card. */
const figure = (page: Page, card: string) =>
  page.getByRole('group', { name: card }).locator('.text-2xl').innerText();

async function openFromSidebar(page: Page, label: RegExp): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: label });
  await link.click();
}

describe('Live Monitoring during an outage', () => {
  it('opened while the server is down: one banner and no figure it did not receive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-outage-'));
    const [server, browser] = await Promise.all([
      startServer({ DATABASE_URL: join(dir, 'scanline.db') }),
      launchBrowser(),
    ]);
    try {
      const { page } = await newPage(browser, server.url);
      await page.setViewportSize({ width: 1280, height: 800 });
      await loginThroughApi(page);
      // Visited once, so the screen's code is in the browser, then left.
      await page.goto('/admin/live-monitoring');
      await page.getByRole('heading', { name: 'Live Monitoring Dashboard' }).waitFor();
      await openFromSidebar(page, /^Dashboard/);
      await page.waitForURL('**/admin/dashboard');

      await server.stop();
      await openFromSidebar(page, /Live Monitoring/);
      await page.getByRole('heading', { name: 'Live Monitoring Dashboard' }).waitFor();
      await page.getByText(SERVER_UNREACHABLE).waitFor({ timeout: 15_000 });

      expect(await page.getByText(CONNECTION_LOST).count()).toBe(0);
      for (const card of ['Active Bots', 'Network Health', 'Scans/Min', 'Pets Found', 'Total Hops'])
        expect(await figure(page, card), card).toBe('—');
      expect(await page.getByText('Improving', { exact: true }).count()).toBe(0);
      expect(await page.getByText('85%').count()).toBe(0);
    } finally {
      await browser.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Live Monitoring under an emergency stop', () => {
  it('shows the network stopped, since when and why, and the sidebar says STOPPED, not LIVE', async () => {
    const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    try {
      const { page } = await newPage(browser, server.url);
      await loginThroughApi(page);
      await page.goto('/admin/live-monitoring');
      const badge = page
        .getByRole('navigation', { name: 'Admin' })
        .getByRole('link', { name: /Live Monitoring/ });
      // No bot has reported to this server: the fleet is down, not live.
      await badge.getByText('DOWN', { exact: true }).waitFor();

      // Stopped from elsewhere (another tab, another admin): this page learns it from the socket.
      const res = await page.request.post('/api/admin/configurations/emergency-stop', {
        data: { reason: 'Game update rolling out' },
        headers: sameOriginHeaders(page),
      });
      expect(res.status(), await res.text()).toBe(200);

      await page.getByText('The bot network is stopped').waitFor({ timeout: 15_000 });
      await page.getByText(/Reason: Game update rolling out\./).waitFor();
      await badge.getByText('STOPPED', { exact: true }).waitFor();
      expect(await badge.getByText('LIVE', { exact: true }).count()).toBe(0);
      await page.getByText('Stopped by an emergency stop').waitFor();
      expect(await page.getByText('Improving', { exact: true }).count()).toBe(0);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
