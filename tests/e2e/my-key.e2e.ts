import { describe, expect, it } from 'vitest';
import type { RedemptionKeyResponse } from '../../common/redemption.ts';
import type { RedeemResponse } from '../../common/script-access.ts';
import { loginThroughApi, sameOriginHeaders, useBrowserSuite } from './harness.ts';
import { LONG_DEVICE } from './realistic-data.ts';

type Suite = ReturnType<typeof useBrowserSuite>;

/** The seller makes a 1-device PREMIUM code (signed in); the buyer's executor redeems it on `hwid`. */
async function sellAndRedeem(suite: Suite, hwid: string, device?: unknown) {
  const { page, server } = suite;
  await loginThroughApi(page);
  const made = await page.request.post('/api/admin/create-redemption-key', {
    data: { keyType: 'PREMIUM', maxHardwareBindings: 1, validityDuration: 720 },
    headers: sameOriginHeaders(page),
  });
  expect(made.status(), await made.text()).toBe(201);
  const code = ((await made.json()) as RedemptionKeyResponse).redemptionKey.redemptionCode;
  const redeemed = await fetch(`${server.url}/api/script/redeem`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, hwid, device }),
  });
  expect(redeemed.status).toBe(200);
  const { scriptKey } = (await redeemed.json()) as RedeemResponse;
  return { code, scriptKey };
}

describe('My key (/key)', () => {
  const suite = useBrowserSuite();

  it("shows a buyer's bound device and resets it after they confirm", async () => {
    const { page } = suite;
    // The seller makes a code; the buyer's executor redeems it, which makes the script key and binds its PC.
    const { scriptKey } = await sellAndRedeem(suite, 'e2e-my-key-old-pc', LONG_DEVICE);

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

describe('My key (/key): a buyer on a new PC with only the used code (issue 36)', () => {
  const suite = useBrowserSuite();

  it('gets the key back, resets the old PC out and runs on the new one', async () => {
    const { page, server } = suite;
    const { code, scriptKey } = await sellAndRedeem(suite, 'e2e-old-pc');
    const feed = (key: string, hwid: string) =>
      fetch(`${server.url}/api/script/feed?${new URLSearchParams({ key, hwid })}`);
    expect((await feed(scriptKey, 'e2e-old-pc')).status).toBe(200);

    // The old PC is gone with the key file; the buyer has the code from the order page.
    await page.goto('/key');
    await page.getByLabel('Script key').fill(code);
    await page.getByRole('button', { name: 'Check key' }).click();
    await page.getByText('1 of 1 device bound').waitFor();
    const shown = page.getByTestId('my-script-key');
    expect(await shown.textContent()).not.toBe(scriptKey);
    await page.getByRole('button', { name: 'Reveal key' }).click();
    expect(await shown.textContent()).toBe(scriptKey);

    await page.getByRole('button', { name: 'Reset devices' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset devices?' });
    expect(await dialog.textContent()).toContain('Close the script on the old PC first.');
    await dialog.getByRole('button', { name: 'Reset devices' }).click();
    await page.getByText('Now run the script again on your new PC: it binds to the key.').waitFor();
    // With the weekly reset spent, the button says why it cannot be pressed.
    expect(await page.getByRole('button', { name: 'Reset devices' }).isDisabled()).toBe(true);

    // The old PC's script is told and does not take the key back; the new PC runs with the key shown.
    const old = await feed(scriptKey, 'e2e-old-pc');
    expect(old.status).toBe(403);
    expect(((await old.json()) as { error: string }).error).toMatch(/^This device was removed from the key/);
    const fresh = await feed(scriptKey, 'e2e-new-pc');
    expect(fresh.status, await fresh.clone().text()).toBe(200);
    expect(((await fresh.json()) as { tier: string }).tier).toBe('PREMIUM');
  });
});

describe('My key (/key): the reset dialog and an exhausted budget', () => {
  const suite = useBrowserSuite();

  /** The element holding the keyboard focus, as a screen reader would name it. */
  const focused = (page: Suite['page']) =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active === document.body ? 'body' : `${active?.tagName} ${active?.textContent?.trim()}`;
    });

  it('gives focus back to Reset devices after Escape and after confirming, without a page error', async () => {
    const { page } = suite;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const { scriptKey } = await sellAndRedeem(suite, 'e2e-focus-pc');

    await page.goto('/key');
    await page.getByLabel('Script key').fill(scriptKey);
    await page.getByRole('button', { name: 'Check key' }).click();
    const resetButton = page.getByRole('button', { name: 'Reset devices' });
    const dialog = page.getByRole('alertdialog', { name: 'Reset devices?' });

    await resetButton.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('BUTTON Reset devices');

    await resetButton.click();
    await dialog.getByRole('button', { name: 'Reset devices' }).click();
    await page.getByText('Devices reset: 1 device removed.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('BUTTON Reset devices');
    // That was the last reset: the button now says why it cannot be pressed.
    expect(await resetButton.isDisabled()).toBe(true);
    await page.getByText(/^No resets left\. The next reset is available /).waitFor();
    expect(errors).toEqual([]);
  });

  it('with no reset left, Reset devices cannot be pressed and says until when, before any confirmation', async () => {
    const { page } = suite;
    const { scriptKey } = await sellAndRedeem(suite, 'e2e-spent-pc');
    // The weekly reset is spent elsewhere (the executor's key box, Discord): the page learns it on a check.
    const spent = await page.request.post('/api/script/reset-hwid', { data: { key: scriptKey } });
    expect(spent.status(), await spent.text()).toBe(200);

    await page.goto('/key');
    await page.getByLabel('Script key').fill(scriptKey);
    await page.getByRole('button', { name: 'Check key' }).click();
    await page.getByText('0 of 1 device bound').waitFor();
    const resetButton = page.getByRole('button', { name: 'Reset devices' });
    expect(await resetButton.isDisabled()).toBe(true);
    const reason = page.getByText(/^No resets left\. The next reset is available /);
    expect(await reason.isVisible()).toBe(true);
    // The reason is the button's description, so a screen reader hears it on the button too.
    const describedBy = (await resetButton.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(await reason.textContent());

    await resetButton.click({ force: true });
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });
});
