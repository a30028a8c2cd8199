import type { Dialog, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  launchBrowser,
  loginAsAdmin,
  newPage,
  startServer,
  toastTitled,
  useBrowserSuite,
} from './harness.ts';

const UNREACHABLE = 'Server unreachable — retrying…';

function sidebarLink(page: Page, name: string | RegExp) {
  return page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name });
}

/** The question the console asks before unsaved edits are left behind. */
function leaveQuestion(page: Page) {
  return page.getByRole('alertdialog', { name: 'Leave without saving?' });
}

async function openScriptManagement(page: Page): Promise<void> {
  await loginAsAdmin(page);
  await sidebarLink(page, /Script Management/).click();
  await page.getByRole('heading', { name: 'Script Management' }).waitFor();
  await page
    .getByRole('combobox', { name: 'Script' })
    .filter({ hasText: 'scanline-universal.lua' })
    .waitFor();
}

/** Types at the end of the script editor with the keyboard, as the admin would. */
async function typeInEditor(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Script editor' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.getByTestId('save-state').filter({ hasText: 'Modified' }).waitFor();
}

/** Closes the page as the browser's close button would; resolves with the beforeunload question, if any. */
async function closeTab(page: Page): Promise<Dialog | null> {
  const asked = page.waitForEvent('dialog', { timeout: 3_000 }).catch(() => null);
  await page.close({ runBeforeUnload: true });
  return asked;
}

describe('admin shell: the server going away', () => {
  it('keeps the console with a banner when the server stops and a sidebar entry is clicked', async () => {
    const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    try {
      const { page } = await newPage(browser, server.url);
      await loginAsAdmin(page);
      await page.getByRole('group', { name: 'Total Keys' }).waitFor();

      await server.stop();
      await sidebarLink(page, /Security & Analytics/).click();
      await page.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor();
      expect(page.url()).toMatch(/\/admin\/security$/);
      expect(await page.getByRole('navigation', { name: 'Admin' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Admin Secret').count()).toBe(0);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});

describe('admin shell in the browser', () => {
  const suite = useBrowserSuite();

  it('shows the banner while calls fail and drops it, loading the screen, once the server answers', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.route('**/api/admin/**', (route) => route.abort('connectionrefused'));
    await sidebarLink(page, /License Keys/).click();
    await page.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor();
    expect(await page.getByLabel('Admin Secret').count()).toBe(0);

    await page.unroute('**/api/admin/**');
    // The session check repeats every 5 s while the server is away.
    await page
      .getByRole('alert')
      .filter({ hasText: UNREACHABLE })
      .waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('heading', { name: 'License Keys' }).waitFor();
    await page.getByText('No license keys found').waitFor();
  });

  it('shows the login form in place when the session is gone (a 401), not the banner', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.getByRole('group', { name: 'Total Keys' }).waitFor();
    // The dashboard's own first calls are answered; from now on the session is gone.
    await page.waitForLoadState('networkidle');
    await page.context().clearCookies();
    await sidebarLink(page, /Redemption Codes/).click();
    await page.getByLabel('Admin Secret').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: UNREACHABLE }).count()).toBe(0);
  });

  it('asks before a sidebar link leaves unsaved script edits: Stay keeps them, Leave goes', async () => {
    const { page } = suite;
    await openScriptManagement(page);
    await typeInEditor(page, '-- unsaved by e2e');

    await sidebarLink(page, /Dashboard/).click();
    await leaveQuestion(page).waitFor();
    await leaveQuestion(page).getByRole('button', { name: 'Stay' }).click();
    await leaveQuestion(page).waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/admin\/script-management$/);
    expect(await page.getByRole('textbox', { name: 'Script editor' }).innerText()).toContain(
      '-- unsaved by e2e',
    );

    // Browser back asks too.
    await page.goBack();
    await leaveQuestion(page).waitFor();
    await leaveQuestion(page).getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toMatch(/\/admin\/script-management$/);

    await sidebarLink(page, /Dashboard/).click();
    await leaveQuestion(page).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/admin/dashboard');
  });

  it('asks before the Scripts Page Editor leaves unsaved changes, and not once they are saved', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await sidebarLink(page, /Scripts Page Editor/).click();
    const title = page.getByLabel('Header Title');
    await title.fill('Scanline Scripts (draft)');
    await page.getByText('Unsaved Changes').waitFor();

    await sidebarLink(page, /File Manager/).click();
    await leaveQuestion(page).getByRole('button', { name: 'Stay' }).click();
    expect(await title.inputValue()).toBe('Scanline Scripts (draft)');

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastTitled(page, 'Configuration Saved!').waitFor();
    await sidebarLink(page, /File Manager/).click();
    await page.waitForURL('**/admin/file-manager');
    expect(await leaveQuestion(page).count()).toBe(0);
  });

  it('makes the browser ask before closing a tab with unsaved edits, and not after saving', async () => {
    const { page } = suite;
    await openScriptManagement(page);
    await typeInEditor(page, '\n-- asked on close');
    const question = await closeTab(page);
    expect(question?.type()).toBe('beforeunload');
    await question?.dismiss();
    expect(page.isClosed()).toBe(false);

    await page.getByRole('button', { name: 'Save & Deploy' }).click();
    await toastTitled(page, 'Script Updated').waitFor();
    await page.getByTestId('save-state').filter({ hasText: 'Saved' }).waitFor();
    expect(await closeTab(page)).toBeNull();
    expect(page.isClosed()).toBe(true);
  });

  it('offers a skip link as the first Tab stop, which moves focus to the screen', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.getByRole('group', { name: 'Total Keys' }).waitFor();
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    // Visually hidden (a 1 px clip) until it has focus.
    const width = async () => (await skip.boundingBox())?.width ?? 0;
    expect(await width()).toBeLessThanOrEqual(1);
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true);
    expect(await width()).toBeGreaterThan(50);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('admin-main');
  });

  it('lists License Keys in the sidebar, and shows unknown admin paths as not found inside the console', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await sidebarLink(page, /License Keys/).click();
    await page.waitForURL('**/admin/license-keys');
    await page.getByRole('heading', { name: 'License Keys' }).waitFor();

    const answer = await page.goto('/admin/no-such-screen');
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL('**/admin/dashboard');
    await page.getByRole('group', { name: 'Total Keys' }).waitFor();
  });
});
