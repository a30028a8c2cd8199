import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RedemptionKeyResponse } from '../../common/redemption.ts';
import type { RedeemRequest } from '../../common/script-access.ts';
import { loginThroughApi, sameOriginHeaders, toastTitled, useBrowserSuite } from './harness.ts';

/**
 * What a script user does: the admin creates a code (through the admin API, signed in), the
 * user's executor redeems it for `device`, which binds that device to the new script key.
 */
async function redeemNewCode(page: Page, hwid: string, device: RedeemRequest['device']): Promise<void> {
  const created = await page.request.post('/api/admin/create-redemption-key', {
    data: { keyType: 'PREMIUM', maxHardwareBindings: 2, validityDuration: 24 },
    headers: sameOriginHeaders(page),
  });
  expect(created.status()).toBe(201);
  const { redemptionKey } = (await created.json()) as RedemptionKeyResponse;
  const redeemed = await page.request.post('/api/script/redeem', {
    data: { code: redemptionKey.redemptionCode, hwid, device },
  });
  expect(redeemed.status()).toBe(200);
}

/** The event type of every audit row on screen, once the table shows the current filter's rows. */
/** The event ids of the audit rows on screen (each row names its event in words, its id in the tooltip). */
async function shownEventTypes(page: Page): Promise<string[]> {
  await page.locator('[aria-busy="false"] tr[data-log-id]').first().waitFor();
  return page
    .locator('tr[data-log-id] td:first-child [title]')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title') ?? ''));
}

describe('hardware bindings and security in the browser', () => {
  const suite = useBrowserSuite();

  it("lists a redeemed code's device binding and revokes it through the confirmation", async () => {
    const { page } = suite;
    await loginThroughApi(page);
    await redeemNewCode(page, 'E2E-HWID-PHONE-0001', {
      deviceName: 'E2E Phone',
      os: 'Android 15',
      architecture: 'arm64',
      deviceType: 'phone',
    });

    await page.goto('/admin/hardware-bindings');
    const row = page.getByRole('row').filter({ hasText: 'E2E Phone' });
    await row.getByText('ACTIVE', { exact: true }).waitFor();
    expect(await row.getByText('E2E-HWID-PHONE-0001').count()).toBe(1);
    expect(await row.getByText('Android 15 · arm64').count()).toBe(1);
    expect(await row.getByText('PREMIUM', { exact: true }).count()).toBe(1);

    await row.getByRole('button', { name: 'Revoke binding' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog
      .getByText(/^E2E Phone will no longer be able to use license key .+ until it is bound again\.$/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Revoke Binding' }).click();
    await toastTitled(page, 'Hardware binding revoked').waitFor();
    await row.getByText('REVOKED', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Revoke binding' }).count()).toBe(0);
  });

  it('filters the audit log by the type of an event the admin caused', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    await redeemNewCode(page, 'E2E-HWID-LAPTOP-0002', { deviceName: 'E2E Laptop', deviceType: 'laptop' });

    await page.goto('/admin/security');
    await page.getByRole('heading', { name: 'Security & Analytics' }).waitFor();
    await page.getByRole('group', { name: 'System Health' }).getByText('Healthy').waitFor();
    const everything = await shownEventTypes(page);
    expect(everything).toContain('code_redeemed');
    expect(everything).toContain('admin_login');

    expect(await page.locator('tr[data-log-id] td:first-child').allInnerTexts()).toContain(
      'Redemption code redeemed',
    );

    await page.getByRole('combobox', { name: 'Event Type' }).click();
    // Every event in plain words, its id in the tooltip: no raw snake_case id in the list.
    const options = page.getByRole('option');
    expect((await options.allInnerTexts()).filter((text) => text.includes('_'))).toEqual([]);
    expect(await page.getByRole('option', { name: 'Emergency stop' }).getAttribute('title')).toBe(
      'configuration_emergency_stop',
    );
    await page.getByRole('option', { name: 'Redemption code redeemed' }).click();
    await page
      .getByRole('combobox', { name: 'Event Type' })
      .filter({ hasText: 'Redemption code redeemed' })
      .waitFor();
    const filtered = await shownEventTypes(page);
    // Exactly the code_redeemed rows the unfiltered log showed (both fit in one page of 100).
    expect(filtered).toEqual(everything.filter((type) => type === 'code_redeemed'));
  });
});
