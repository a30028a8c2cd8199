import { describe, expect, it } from 'vitest';
import { shortenWallet } from '../../common/mask.ts';
import type { SlotUsage } from '../../common/system.ts';
import { loginAsAdmin, newPage, toastTitled, useBrowserSuite } from './harness.ts';

describe('admin console in the browser', () => {
  const suite = useBrowserSuite();

  it('refuses an empty or blank secret without asking the server', async () => {
    const { page } = suite;
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/login')) loginCalls.push(request.url());
    });
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await page.getByText('Admin secret is required').waitFor();

    await page.getByLabel('Admin Secret').fill('    ');
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await page.getByText('Admin secret is required').waitFor();
    expect(loginCalls).toEqual([]);
    expect(page.url()).toMatch(/\/admin\/login$/);
  });

  it('says a wrong secret is invalid, and the toggle shows what was typed', async () => {
    const { page } = suite;
    await page.goto('/admin/login');
    const field = page.getByLabel('Admin Secret');
    await field.fill('not-the-secret');
    expect(await field.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show secret' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Access Dashboard' }).click();
    await page.getByText('Invalid admin secret').waitFor();
    expect(page.url()).toMatch(/\/admin\/login$/);
  });

  it('shows the live socket in the shell and the dashboard, counting every open dashboard', async () => {
    const { page, browser, server } = suite;
    await loginAsAdmin(page);
    await page.getByText('1 client connected').waitFor();
    await page.getByText('Connected', { exact: true }).filter({ visible: true }).first().waitFor();
    // A second admin browser opens its own socket; the server tells the first one at once.
    const second = await newPage(browser, server.url);
    await loginAsAdmin(second.page);
    await page.getByText('2 clients connected').waitFor();
    await second.page.getByText('2 clients connected').waitFor();
    await second.context.close();
    await page.getByText('1 client connected').waitFor();
  });

  it('says real-time data is unavailable when the socket cannot connect', async () => {
    const { page, context } = suite;
    // Refuse every socket the page opens, as a dead network or a down server would.
    await context.routeWebSocket(/\/ws$/, (ws) => ws.close({ code: 1011, reason: 'unavailable' }));
    await loginAsAdmin(page);
    await page.getByText('Real-time data unavailable').waitFor();
    expect(await page.getByText(/clients? connected/).count()).toBe(0);
  });

  it('signs in to a dark dashboard showing the stat cards', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    for (const card of [
      'Total Keys',
      'Active Keys',
      'Expired Keys',
      'Revoked Keys',
      'Total Bindings',
      'Active Bindings',
      'Today',
      'This Week',
      'This Month',
    ]) {
      await page.getByRole('group', { name: card, exact: true }).waitFor();
    }
    await page.getByText('License Key Health').waitFor();
    await page.getByText('Hardware Binding Utilization').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    // Signed in, the login page sends the admin straight back to the dashboard.
    await page.goto('/admin/login');
    await page.waitForURL('**/admin/dashboard');
  });

  it('shows the login form in place of the dashboard without a session', async () => {
    const { page } = suite;
    await page.goto('/admin/dashboard');
    await page.getByLabel('Admin Secret').waitFor();
    await page.getByRole('button', { name: 'Access Dashboard' }).waitFor();
    expect(page.url()).toMatch(/\/admin\/dashboard$/);
    expect(await page.getByRole('group', { name: 'Total Keys' }).count()).toBe(0);
  });

  it('logs out to /admin/login, after which the dashboard needs a login again', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await page.getByLabel('Admin Secret').waitFor();

    await page.goto('/admin/dashboard');
    await page.getByLabel('Admin Secret').waitFor();
    expect(await page.getByRole('group', { name: 'Total Keys' }).count()).toBe(0);
  });

  it('creates a license key, reveals and copies it, revokes it, and the dashboard counts it', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/license-keys');
    await page.getByRole('heading', { name: 'License Keys' }).waitFor();
    await page.getByText('No license keys found').waitFor();

    await page.getByRole('button', { name: 'Generate Key' }).click();
    await page.getByLabel('Notes (optional)').fill('e2e buyer');
    await page.getByRole('button', { name: 'Create Key' }).click();
    await toastTitled(page, 'License key created').waitFor();

    const row = page.getByRole('row').filter({ hasText: 'e2e buyer' });
    const keyText = row.getByTestId('license-key');
    await keyText.waitFor();
    const masked = (await keyText.textContent()) ?? '';
    expect(masked).toMatch(/^.{8}\*+.{4}$/);
    await row.getByText('PREMIUM', { exact: true }).waitFor();
    await row.getByText('ACTIVE', { exact: true }).waitFor();
    await row.getByText('0/1', { exact: true }).waitFor();
    await row.getByText('Never', { exact: true }).first().waitFor();

    await row.getByRole('button', { name: 'Reveal key' }).click();
    await row.getByRole('button', { name: 'Hide key' }).waitFor();
    const full = (await keyText.textContent()) ?? '';
    expect(full).not.toContain('*');
    expect(full.slice(0, 8)).toBe(masked.slice(0, 8));
    expect(full.slice(-4)).toBe(masked.slice(-4));

    await row.getByRole('button', { name: 'Copy key' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);

    await row.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke Key' }).click();
    await toastTitled(page, 'License key revoked').waitFor();
    await row.getByText('REVOKED', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Revoke key' }).count()).toBe(0);

    await page.getByRole('link', { name: /^Dashboard/ }).click();
    await page.waitForURL('**/admin/dashboard');
    const revoked = page.getByRole('group', { name: 'Revoked Keys', exact: true });
    await revoked.getByText('1', { exact: true }).waitFor();
  });

  it('sets slots and wallets, and the landing and buyer pages follow', async () => {
    const { server, browser, context, page } = suite;
    const address = '0x1234567890abcdef1234567890abcdef12345678';
    await loginAsAdmin(page);
    await page.goto('/admin/system-configuration');
    await page.getByRole('heading', { name: 'System Configuration' }).waitFor();

    await page.getByRole('tab', { name: 'Slot Management' }).click();
    await page.getByLabel('Total Slots').fill('-1');
    await page.getByRole('button', { name: 'Save Capacity' }).click();
    await page.getByText('Total slots must be 0 or greater').waitFor();
    await page.getByLabel('Total Slots').fill('12');
    await page.getByRole('button', { name: 'Save Capacity' }).click();
    await toastTitled(page, 'Configuration Updated').waitFor();

    await page.getByRole('tab', { name: /Payment Wallets/ }).click();
    await page.getByRole('button', { name: 'Add Wallet' }).click();
    await toastTitled(page, 'Invalid Wallet').waitFor();
    await page.getByRole('button', { name: 'ETH', exact: true }).click();
    expect(await page.getByLabel('Currency').inputValue()).toBe('ETH');
    await page.getByLabel('Wallet Address').fill(address);
    await page.getByRole('button', { name: 'Add Wallet' }).click();
    await toastTitled(page, 'Wallet Added').waitFor();
    expect(await page.getByRole('button', { name: 'ETH', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await toastTitled(page, 'Configuration Updated').waitFor();

    const usage = (await (
      await context.request.get('/api/admin/system-configuration/slot-usage')
    ).json()) as {
      slotUsage: SlotUsage;
    };
    expect(usage.slotUsage.totalSlots).toBe(12);
    const slotsText = `${usage.slotUsage.availableSlots}/12 slots available`;

    const visitor = await newPage(browser, server.url);
    try {
      await visitor.page.goto('/');
      await visitor.page.getByText(slotsText).first().waitFor();
      await visitor.page.goto('/buyer');
      await visitor.page.getByText(shortenWallet(address)).waitFor();

      await page.getByRole('button', { name: 'Remove ETH wallet' }).click();
      await toastTitled(page, 'Wallet Removed').waitFor();
      await page.getByRole('button', { name: 'Save Configuration' }).click();
      await toastTitled(page, 'Configuration Updated').waitFor();
      await page.getByText('No payment wallets configured').waitFor();

      await visitor.page.reload();
      await visitor.page.getByText(`${usage.slotUsage.availableSlots}/12`).first().waitFor();
      expect(await visitor.page.getByText(shortenWallet(address)).count()).toBe(0);
    } finally {
      await visitor.context.close();
    }
  });

  it('shows the not-found page for an unknown admin path', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/nope');
    await page.getByText('404 Page Not Found').waitFor();
    // Still inside the admin shell.
    await page.getByRole('button', { name: 'Logout' }).waitFor();
  });
});
