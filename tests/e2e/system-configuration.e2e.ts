import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BTCPAY_WEBHOOK_EVENTS } from '../../common/order-texts.ts';
import { loginAsAdmin, toastTitled, useBrowserSuite } from './harness.ts';

const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

function sidebarLink(page: Page, name: string | RegExp) {
  return page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name });
}

function leaveQuestion(page: Page) {
  return page.getByRole('alertdialog', { name: 'Leave without saving?' });
}

async function openSystemConfiguration(page: Page, tab: string | RegExp): Promise<void> {
  await loginAsAdmin(page);
  await sidebarLink(page, /System Configuration/).click();
  await page.getByRole('heading', { name: 'System Configuration' }).waitFor();
  await page.getByRole('tab', { name: tab }).click();
}

describe('System Configuration in the browser', () => {
  // A BTCPay Server on loopback is allowed, so a URL saves without one in reach (a save never connects).
  const suite = useBrowserSuite({ NOTIFY_ALLOW_PRIVATE: 'true' });

  it('asks before a sidebar link leaves an unsaved wallet draft: Stay keeps it, Leave goes', async () => {
    const { page } = suite;
    await openSystemConfiguration(page, /Payment Wallets/);
    await page.getByLabel('Currency').fill('BTC');
    await page.getByLabel('Wallet Address').fill(BTC);
    await page.getByRole('button', { name: 'Add Wallet' }).click();
    const wallets = page.getByRole('list', { name: 'Configured wallets' });
    await wallets.getByText(BTC).waitFor();

    await sidebarLink(page, /Dashboard/).click();
    await leaveQuestion(page).waitFor();
    await leaveQuestion(page).getByRole('button', { name: 'Stay' }).click();
    await leaveQuestion(page).waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/admin\/system-configuration$/);
    expect(await wallets.getByText(BTC).isVisible()).toBe(true);

    await sidebarLink(page, /Dashboard/).click();
    await leaveQuestion(page).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/admin/dashboard');
  });

  it('asks before a tab switch drops a half-typed form, and lets a saved screen go', async () => {
    const { page } = suite;
    await openSystemConfiguration(page, 'Slot Management');
    await page.getByLabel('Total Slots').fill('45');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await leaveQuestion(page).getByRole('button', { name: 'Stay' }).click();
    expect(await page.getByLabel('Total Slots').inputValue()).toBe('45');

    await page.getByRole('button', { name: 'Save Capacity' }).click();
    await toastTitled(page, 'Configuration Updated').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByText('of 45 slots used').waitFor();
    await sidebarLink(page, /Dashboard/).click();
    await page.waitForURL('**/admin/dashboard');
    expect(await leaveQuestion(page).count()).toBe(0);
  });

  it('names every webhook event the manual asks for, "An invoice is processing" among them', async () => {
    const { page } = suite;
    await openSystemConfiguration(page, 'Payment Processor');
    const events = page.getByRole('list', { name: 'Webhook events' });
    await events.waitFor();
    expect(await events.getByRole('listitem').allTextContents()).toEqual([...BTCPAY_WEBHOOK_EVENTS]);
    expect(BTCPAY_WEBHOOK_EVENTS).toContain('An invoice is processing');
  });

  it('a half-filled connection is saved with a toast that says orders cannot use it yet', async () => {
    const { page } = suite;
    await openSystemConfiguration(page, 'Payment Processor');
    await page.getByLabel('BTCPay Server URL').fill('http://127.0.0.1:9');
    await page.getByLabel('Store ID').fill('e2e-store');
    await page.getByRole('button', { name: 'Save Connection' }).click();

    await toastTitled(page, 'Payment Settings Saved').waitFor();
    const description = page.getByText(/^Not connected yet: /).first();
    expect(await description.textContent()).toBe(
      'Not connected yet: the API key and the webhook secret are missing. Until they are saved, buyers cannot pay through BTCPay Server.',
    );
    expect(await page.getByText('Orders use the new settings now.').count()).toBe(0);
    expect(await page.getByText('Not connected', { exact: true }).isVisible()).toBe(true);
  });
});
