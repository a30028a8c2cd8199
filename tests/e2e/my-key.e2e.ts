import { describe, expect, it } from 'vitest';
import type { RedemptionKeyResponse } from '../../common/redemption.ts';
import type { RedeemResponse } from '../../common/script-access.ts';
import { loginThroughApi, sameOriginHeaders, useBrowserSuite } from './harness.ts';
import { LONG_DEVICE } from './realistic-data.ts';

describe('My key (/key)', () => {
  const suite = useBrowserSuite();

  it("shows a buyer's bound device and resets it after they confirm", async () => {
    const { page, server } = suite;
    // The seller makes a code; the buyer's executor redeems it, which makes the script key and binds its PC.
    await loginThroughApi(page);
    const made = await page.request.post('/api/admin/create-redemption-key', {
      data: { keyType: 'PREMIUM', maxHardwareBindings: 1, validityDuration: 720 },
      headers: sameOriginHeaders(page),
    });
    expect(made.status(), await made.text()).toBe(201);
    const { redemptionKey } = (await made.json()) as RedemptionKeyResponse;
    const redeemed = await fetch(`${server.url}/api/script/redeem`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        code: redemptionKey.redemptionCode,
        hwid: 'e2e-my-key-old-pc',
        device: LONG_DEVICE,
      }),
    });
    expect(redeemed.status).toBe(200);
    const { scriptKey } = (await redeemed.json()) as RedeemResponse;

    await page.goto('/key');
    await page.getByRole('heading', { level: 1, name: 'My key' }).waitFor();
    await page.getByLabel('Script key').fill(scriptKey);
    await page.getByRole('button', { name: 'Check key' }).click();
    await page.getByText('1 of 1 device bound').waitFor();
    expect(await page.locator('dl > div', { hasText: 'Type' }).locator('dd').textContent()).toBe('Premium');
    // The device id shows masked, never whole.
    expect(await page.getByText('e2e-my-key-old-pc').count()).toBe(0);

    await page.getByRole('button', { name: 'Reset devices' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset devices?' });
    await dialog.getByRole('button', { name: 'Reset devices' }).click();
    await page.getByText('Devices reset: 1 device removed.').waitFor();
    await page.getByText('0 of 1 device bound').waitFor();
    const resetsLeft = page.locator('dl > div', { hasText: 'Resets left' });
    expect(await resetsLeft.locator('dd').textContent()).toBe('0');

    // Checked again from scratch, the server says the same: no device, no reset left.
    await page.reload();
    await page.getByLabel('Script key').fill(scriptKey);
    await page.getByRole('button', { name: 'Check key' }).click();
    await page.getByText('0 of 1 device bound').waitFor();
    expect(await resetsLeft.locator('dd').textContent()).toBe('0');

    // The seller sees the buyer's reset in Hardware Bindings.
    await page.goto('/admin/hardware-bindings');
    await page.getByRole('heading', { name: 'Device Resets' }).waitFor();
    const resetRow = page.getByRole('row', { name: /Buyer \(My key\)/ });
    await resetRow.waitFor();
    expect(await resetRow.getByRole('cell').nth(3).textContent()).toContain('1');
  });
});
