import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from './harness.ts';

describe('the API reference in the browser', () => {
  const suite = useBrowserSuite();

  it('lists the operations at /api/docs without a session, with no CSP violation or failed file', async () => {
    const { page } = suite;
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    const outside: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== new URL(suite.server.url).origin) outside.push(request.url());
    });

    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /Scanline/ }).waitFor();
    // Operations of the admin API, the bot API and the loader, grouped by feature.
    await page.locator('.opblock-summary-path', { hasText: '/api/admin/dashboard/stats' }).first().waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/bot/events' }).first().waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/script/loader' }).first().waitFor();
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(10);
    // The sign-in schemes are offered.
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .waitFor();

    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
