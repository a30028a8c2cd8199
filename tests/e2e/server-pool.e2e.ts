import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginAsAdmin, newPage, type RunningServer, startServer } from './harness.ts';

/** The bots' token for this server, so the test can call the pool as a bot would. */
const BOT_TOKEN = 'e2e-server-pool-bot-token-0123456789';

describe('server pool monitor in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ BOT_TOKEN }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A bot's call to the pool; fails the test on anything but 200. */
  async function asBot<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
      body: JSON.stringify(body),
    });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  }

  it('shows the cards and the flagged bot; most servers deleted leaves the pool healthy (deleted are history)', async () => {
    const servers = Array.from({ length: 20 }, (_, i) => ({ placeId: '142823291', jobId: `e2e-job-${i}` }));
    await asBot('/api/server-pool/servers', { servers });
    // The pool serves only bots of the fleet: each says hello first.
    for (const ghostId of ['e2e-broken-bot', 'e2e-good-bot']) {
      await asBot('/api/bot/events', {
        ghostId,
        events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }],
      });
    }
    // One bot fails on 12 servers in a row (deleted; it is flagged after 10); another holds one.
    for (let i = 0; i < 12; i++) {
      const { server: claimed } = await asBot<{ server: { jobId: string } }>('/api/server-pool/claim', {
        ghostId: 'e2e-broken-bot',
      });
      await asBot('/api/server-pool/release', {
        ghostId: 'e2e-broken-bot',
        jobId: claimed.jobId,
        outcome: 'error',
        reason: 'Teleport failed',
      });
    }
    await asBot('/api/server-pool/claim', { ghostId: 'e2e-good-bot' });

    const { page } = await newPage(browser, server.url);
    await loginAsAdmin(page);
    // The dashboard's live-data indicator reads the real socket: this page is its one client.
    await page.getByText('1 client connected', { exact: true }).waitFor();
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: /Server Pool/ })
      .click();
    await page.waitForURL('**/admin/server-pool');

    // The screen is loaded on demand: wait for it rather than the URL alone.
    await page.getByRole('heading', { name: 'Server Pool Monitor' }).waitFor();
    const card = (name: string) => page.getByRole('group', { name }).innerText();
    await page.getByRole('group', { name: 'Total Servers' }).waitFor();
    // 20 added, 12 deleted: the pool holds 8, of which 7 are free.
    expect(await card('Total Servers')).toContain('8');
    expect(await card('Available Servers')).toContain('7');
    expect(await card('Active Bots')).toContain('1');
    expect(await card('Deleted Servers')).toContain('12');
    expect(await page.getByText('Low Pool Availability!').count()).toBe(0);
    expect(await page.getByText('1/8 assigned').isVisible()).toBe(true);
    expect(await page.getByTestId('availability-badge').innerText()).toBe('87.5%');
    const flagged = page.getByRole('table', { name: 'Flagged bots' });
    expect(await flagged.getByRole('row', { name: /e2e-broken-bot/ }).innerText()).toContain('12');
    // The shell's indicator reflects the real socket.
    await page.getByRole('complementary').getByText('Connected', { exact: true }).waitFor();

    await page.context().close();
  });
});
