import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../common/scripts-page.ts';
import { configureSystem, loginThroughApi, toastTitled, useBrowserSuite } from './harness.ts';

const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const ETH = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';

describe('public site in the browser', () => {
  const suite = useBrowserSuite();

  // Runs first: the server is fresh, nothing configured yet.
  it('shows 30/30 free slots and an enabled buy link on a fresh server', async () => {
    const { page } = suite;
    await page.goto('/');
    await page.getByRole('heading', { name: 'Scanline', level: 1 }).waitFor();
    await page.getByText('30/30 slots available').waitFor();
    expect(await page.getByText('Available', { exact: true }).isVisible()).toBe(true);
    const buy = page.getByRole('link', { name: 'Buy Premium Access' });
    expect(await buy.getAttribute('href')).toBe('/buyer');
    await buy.click();
    await page.getByRole('heading', { name: 'Premium Access - Purchase' }).waitFor();
  });

  it('lists the wallets shortened on the buyer page and copies a full address', async () => {
    const { page } = suite;
    await configureSystem(page, 30, { BTC, ETH });
    await page.goto('/buyer');
    await page.getByText('bc1qxy2k...fjhx0wlh').waitFor();
    expect(await page.getByText('0x71C765...f6d8976F').isVisible()).toBe(true);
    expect(await page.getByText(BTC).count()).toBe(0);

    await page.getByRole('button', { name: 'Copy BTC wallet address' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(BTC);
  });

  it('disables the buy button as Sold Out once no slot is left', async () => {
    const { page } = suite;
    await configureSystem(page, 0, { BTC });
    await page.goto('/');
    await page.getByText('0/0 slots available').waitFor();
    const soldOut = page.getByRole('button', { name: 'Sold Out' });
    expect(await soldOut.isDisabled()).toBe(true);
    expect(await page.getByText('Full', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Buy Premium Access' }).count()).toBe(0);
    await configureSystem(page, 30, { BTC, ETH });
  });

  it("shows the server's scripts page and copies a loader for this origin", async () => {
    const { server, page } = suite;
    const res = await page.request.get('/api/public/scripts-page-config');
    const { config } = (await res.json()) as { config: ScriptsPageConfig };
    const sections = config.sections.filter((s) => s.visible).sort((a, b) => a.order - b.order);
    const scriptButton = sections
      .flatMap((s) => s.buttons)
      .find((b) => b.visible && b.downloadType === 'script');
    expect(scriptButton).toBeDefined();

    await page.goto('/scripts');
    await page.getByRole('heading', { name: config.headerTitle, level: 1 }).waitFor();
    const shown = await page.locator('section h2').allTextContents();
    expect(shown).toEqual(sections.map((s) => s.title));
    expect(await page.getByText('Configuration Error').count()).toBe(0);
    await page.getByRole('heading', { name: 'How to Use' }).waitFor();

    await page.getByRole('button', { name: scriptButton!.label }).first().click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `loadstring(game:HttpGet("${server.url}/api/script/loader?script=${encodeURIComponent(scriptButton!.file)}"))()`,
    );
  });

  it('downloads the free script from its file button, byte for byte as shipped', async () => {
    const { page } = suite;
    await page.goto('/scripts');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download .lua' }).click(),
    ]);
    await toastTitled(page, 'Download Started!').waitFor();
    expect(download.suggestedFilename()).toBe(FREE_SCRIPT_FILE);
    const downloaded = readFileSync(await download.path());
    expect(downloaded.equals(readFileSync(`scripts/${FREE_SCRIPT_FILE}`))).toBe(true);
  });

  it('serves the same scripts page on /script', async () => {
    const { page } = suite;
    await page.goto('/script');
    await page.getByRole('heading', { name: 'How to Use' }).waitFor();
  });

  it('falls back to the default view with a Configuration Error card when the config fails', async () => {
    const { page } = suite;
    await page.route('**/api/public/scripts-page-config', (route) =>
      route.fulfill({ status: 500, body: 'boom' }),
    );
    await page.goto('/scripts');
    await page.getByText('Configuration Error', { exact: true }).waitFor();
    expect(await page.getByText('Failed to load page configuration. Showing default view.').isVisible()).toBe(
      true,
    );
    expect(
      await page.getByText('Unable to load dynamic configuration. Please contact support.').isVisible(),
    ).toBe(true);
    expect(await page.getByRole('heading', { name: 'Scanline Scripts', level: 1 }).isVisible()).toBe(true);
  });

  it('shows 404 Page Not Found on an unknown path, under a 404 status', async () => {
    const { page } = suite;
    const answer = await page.goto('/no-such-page');
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await page.getByText('slots available').waitFor();
  });

  it('shows 404 Page Not Found on an unknown admin path once signed in', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const answer = await page.goto('/admin/no-such-screen');
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });
});
