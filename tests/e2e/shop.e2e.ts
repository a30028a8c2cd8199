import { describe, expect, it } from 'vitest';
import { loginAsAdmin, loginThroughApi, sameOriginHeaders, useBrowserSuite } from './harness.ts';

const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const INVITE = 'https://discord.gg/our-shop';

/**
 * An honest shop (issue 36, item 9): /buyer states what is bought before paying, and with no free
 * slot shows nowhere to pay and when to come back, then offers the wallets again by itself once a
 * slot frees (the page polls the purchase info every 15 s).
 */
describe('the shop in the browser', () => {
  const suite = useBrowserSuite();

  it('states validity and devices; when full hides the wallets and steps, then shows them again when a slot frees', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const headers = sameOriginHeaders(page);
    const saved = await page.request.put('/api/admin/system-configuration', {
      data: { totalSlots: 1, paymentWallets: { BTC }, communityInviteUrl: INVITE },
      headers,
    });
    expect(saved.status()).toBe(200);

    await page.goto('/buyer');
    await page.getByText('1/1 slots available').waitFor();
    await page.getByText(/Valid 24 hours from redemption, on 1 device at a time/).waitFor();
    await page.getByText('bc1qxy2k...fjhx0wlh').waitFor();
    expect(await page.getByRole('link', { name: /Join Community Chat/ }).getAttribute('href')).toBe(INVITE);

    // Someone buys the last slot: a key that runs out in two hours.
    const expiresAt = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString();
    const key = await page.request.post('/api/admin/license-keys', {
      data: { keyType: 'PREMIUM', maxBindings: 1, expiresAt },
      headers,
    });
    expect(key.status()).toBe(201);
    const { id } = ((await key.json()) as { licenseKey: { id: number } }).licenseKey;

    await page.reload();
    await page.getByText('0/1 slots available').waitFor();
    await page.getByText('All premium slots are taken').waitFor();
    const when = new Date(expiresAt).toLocaleTimeString('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    await page.getByText(`A slot may free by ${when}: come back then.`).waitFor();
    expect(await page.getByText('bc1qxy2k...fjhx0wlh').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Copy/ }).count()).toBe(0);
    expect(await page.getByText(/Send exactly 40 USD/).count()).toBe(0);
    expect(await page.getByText('How to Purchase').count()).toBe(0);
    // Nowhere to pay in the answer either.
    const info = await (await page.request.get('/api/public/purchase-info')).json();
    expect(info.paymentWallets).toEqual({});

    // The slot frees (the key is revoked): the open page shows the wallets again without a reload.
    const revoked = await page.request.post(`/api/admin/license-keys/${id}/revoke`, { headers });
    expect(revoked.ok()).toBe(true);
    await page.getByText('bc1qxy2k...fjhx0wlh').waitFor({ timeout: 25_000 });
    await page.getByText(/Send exactly 40 USD/).waitFor();
    expect(await page.getByText('All premium slots are taken').count()).toBe(0);
  });

  it('shows on the wallets form why an address was refused, and buyers never see it', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/system-configuration');
    await page.getByRole('tab', { name: /Payment Wallets/ }).click();
    await page.getByLabel('Currency').fill('ETH');
    await page.getByLabel('Wallet Address').fill('hello world not an address');
    await page.getByRole('button', { name: 'Add Wallet' }).click();
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'ETH: this is not an Ethereum address. Buyers are not shown this wallet' })
      .waitFor();
    const info = await (await page.request.get('/api/public/purchase-info')).json();
    expect(Object.keys(info.paymentWallets)).not.toContain('ETH');
  });
});
