import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginThroughApi, useBrowserSuite } from './harness.ts';

/*
 * The forms say what the API would refuse before sending it, beside the field and in the form's
 * words, and when the server still refuses, its text shows beside the field it names (issue 38,
 * item 7: "expiresAt must be in the future" came as a toast after the call, "url: The URL must use
 * https" at the dialog's foot with no word of NOTIFY_ALLOW_PRIVATE). The server runs with its
 * defaults: no private addresses, no plain http.
 */

/** Every call the page makes to `path` with `method`, recorded from now on. */
function recordCalls(page: Page, method: string, path: string): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) calls.push(request.url());
  });
  return calls;
}

/** The message under a labelled field of `dialog` (its alert), once there is one. */
async function fieldMessage(dialog: Locator, label: string): Promise<string> {
  const field = dialog
    .locator('div.grid')
    .filter({ has: dialog.page().getByLabel(label, { exact: true }) })
    .last();
  const alert = field.getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

describe('operator words in the forms', () => {
  const suite = useBrowserSuite();

  it('refuses an expiry in the past beside the field before any call', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const creates = recordCalls(page, 'POST', '/api/admin/script-keys/create');
    await page.goto('/admin/script-keys');
    await page.getByRole('button', { name: 'Create Script Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Script Key' });
    await dialog.getByLabel('Expires At (optional)').fill('2020-01-02T03:04');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    expect(await fieldMessage(dialog, 'Expires At (optional)')).toBe('The expiry must be in the future');
    expect(creates).toEqual([]);
  });

  it("says a destination URL must use https and how plain http is allowed, before any call; the server's refusal beside the URL", async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const adds = recordCalls(page, 'POST', '/api/admin/notifications/destinations');
    await page.goto('/admin/notifications');
    await page.getByRole('button', { name: 'Add Destination' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Destination' });
    await dialog.getByLabel('Name', { exact: true }).fill('Bridge');
    await dialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'JSON webhook' }).click();
    await dialog.getByLabel('URL', { exact: true }).fill('http://192.168.1.20:8080/finds');
    await dialog.getByRole('button', { name: 'Add Destination' }).click();
    expect(await fieldMessage(dialog, 'URL')).toBe(
      'The URL must use https (plain http only to a private address, with NOTIFY_ALLOW_PRIVATE=true on the server)',
    );
    expect(adds).toEqual([]);

    // https, but to a loopback address: only the server can tell (it resolves the host). Its words, beside the URL.
    await dialog.getByLabel('URL', { exact: true }).fill('https://127.0.0.1/finds');
    await dialog.getByRole('button', { name: 'Add Destination' }).click();
    await expect
      .poll(() => fieldMessage(dialog, 'URL'))
      .toBe(
        'The URL resolves to a private, loopback or link-local address, which the server reaches only with NOTIFY_ALLOW_PRIVATE=true',
      );
    expect(adds).toHaveLength(1);
    expect(await dialog.getByText(/^url: /).count()).toBe(0);
  });
});
