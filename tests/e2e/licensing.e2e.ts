import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { maskLicenseKey } from '../../common/mask.ts';
import { REDEMPTION_CODE_PATTERN } from '../../common/redemption.ts';
import type { RedeemResponse } from '../../common/script-access.ts';
import { loginAsAdmin, toastTitled, useBrowserSuite } from './harness.ts';

/** The table row holding `text` (a code's or key's notes, a masked key). */
function rowWith(page: Page, text: string) {
  return page.locator('tr', { hasText: text });
}

async function openScreen(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: heading }).waitFor();
}

describe('redemption codes and script keys in the browser', () => {
  const suite = useBrowserSuite();

  it('creates a code, which a script user redeems; the code reads Redeemed and its key is listed', async () => {
    const { page, server } = suite;
    await loginAsAdmin(page);
    await openScreen(page, '/admin/redemption-keys', 'Redemption Codes');

    await page.getByRole('button', { name: 'Create Redemption Code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Redemption Code' });
    await dialog.getByRole('combobox', { name: 'Key Type' }).click();
    await page.getByRole('option', { name: 'VIP — premium features' }).click();
    await dialog.getByLabel('Max Hardware Bindings').fill('2');
    await dialog.getByLabel('Validity (hours)').fill('48');
    await dialog.getByLabel('Notes (optional)').fill('e2e buyer');
    await dialog.getByRole('button', { name: 'Create Code' }).click();
    await toastTitled(page, 'Redemption code created').waitFor();

    const codeRow = rowWith(page, 'e2e buyer');
    await codeRow.getByText('Available', { exact: true }).waitFor();
    await codeRow.getByText('VIP', { exact: true }).waitFor();
    await codeRow.getByRole('button', { name: 'Copy code' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    const code = await page.evaluate(() => navigator.clipboard.readText());
    expect(code).toMatch(REDEMPTION_CODE_PATTERN);
    const shown = codeRow.getByTestId('redemption-code');
    expect(await shown.textContent()).not.toBe(code);
    await codeRow.getByRole('button', { name: 'Reveal code' }).click();
    expect(await shown.textContent()).toBe(code);

    // The script user's executor has no admin session: a plain request from outside the browser.
    const res = await fetch(`${server.url}/api/script/redeem`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code, hwid: 'e2e-device-1' }),
    });
    expect(res.status).toBe(200);
    const redeemed = (await res.json()) as RedeemResponse;
    expect(redeemed).toMatchObject({ success: true, scriptType: 'VIP', maxHardwareBindings: 2 });

    await page.reload();
    await rowWith(page, 'e2e buyer').getByText('Redeemed', { exact: true }).waitFor();
    expect(await rowWith(page, 'e2e buyer').getByText('Never', { exact: true }).count()).toBe(0);

    await openScreen(page, '/admin/script-keys', 'Script Keys Management');
    // Found by its masked key, then pinned by id: revealing it changes the text it was found by.
    const keyId = await rowWith(page, maskLicenseKey(redeemed.scriptKey)).getAttribute('data-key-id');
    const keyRow = page.locator(`tr[data-key-id="${keyId}"]`);
    await keyRow.getByText('Active', { exact: true }).waitFor();
    await keyRow.getByText('VIP', { exact: true }).waitFor();
    await keyRow.getByRole('button', { name: 'Reveal key' }).click();
    expect(await keyRow.getByTestId('script-key').textContent()).toBe(redeemed.scriptKey);
  });

  it('switches a script key off, then deletes it after confirmation', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await openScreen(page, '/admin/script-keys', 'Script Keys Management');

    await page.getByRole('button', { name: 'Create Script Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Script Key' });
    await dialog.getByLabel('Notes (optional)').fill('e2e toggle');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await toastTitled(page, 'Script key created').waitFor();

    const row = rowWith(page, 'e2e toggle');
    await row.getByText('Active', { exact: true }).waitFor();
    const toggle = row.getByRole('switch', { name: 'Key active' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await toastTitled(page, 'Status updated').waitFor();
    await row.getByText('Inactive', { exact: true }).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    // The new status is the server's, not just the screen's.
    await page.reload();
    await rowWith(page, 'e2e toggle').getByText('Inactive', { exact: true }).waitFor();

    await rowWith(page, 'e2e toggle').getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this script key?' }).waitFor();
    await page.getByRole('button', { name: 'Delete Key' }).click();
    await toastTitled(page, 'Script key deleted').waitFor();
    await rowWith(page, 'e2e toggle').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Script Keys Management' }).waitFor();
    await page.getByRole('group', { name: 'Total Keys' }).waitFor();
    expect(await rowWith(page, 'e2e toggle').count()).toBe(0);
  });
});
