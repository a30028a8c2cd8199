import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newPage, useBrowserSuite } from './harness.ts';
import { LONG_DEVICE, LONG_FILENAME, type SeededRows, seedRows, signIn } from './realistic-data.ts';

const DESKTOP = { width: 1280, height: 800 };
const SMALL_LAPTOP = { width: 1024, height: 768 };
const TABLET = { width: 768, height: 1024 };
const PHONE = { width: 390, height: 844 };

/** What the tests look for on each admin list screen: the spec's columns, one seeded row, its status and actions. */
interface TableScreen {
  name: string;
  path: string;
  heading: string;
  columns: string[];
  /** The seeded row. */
  row: (page: Page) => Locator;
  /** The row's Status (or Result, Location) as shown. */
  status: string;
  /** The row's action controls, by role and accessible name. */
  actions: { role: 'button' | 'switch'; name: string }[];
}

const seeded: SeededRows = { licenseKeyId: 0, scriptKeyId: 0, redemptionCodeId: 0 };

const SCREENS: TableScreen[] = [
  {
    name: 'License Keys',
    path: '/admin/license-keys',
    heading: 'License Keys',
    columns: ['Key', 'Type', 'Status', 'Bindings', 'Usage', 'Last Used', 'Expires', 'Created', 'Actions'],
    row: (page) => page.locator(`tr[data-key-id="${seeded.licenseKeyId}"]`),
    status: 'ACTIVE',
    actions: [
      { role: 'button', name: 'Revoke key' },
      { role: 'button', name: 'Delete key' },
    ],
  },
  {
    name: 'Script Keys',
    path: '/admin/script-keys',
    heading: 'Script Keys Management',
    columns: ['Script Key', 'Type', 'Status', 'Usage Count', 'Last Used', 'Created', 'Expires', 'Actions'],
    row: (page) => page.locator(`tr[data-key-id="${seeded.scriptKeyId}"]`),
    status: 'Active',
    actions: [
      { role: 'switch', name: 'Key active' },
      { role: 'button', name: 'Delete key' },
    ],
  },
  {
    name: 'Security audit log',
    path: '/admin/security',
    heading: 'Security & Analytics',
    columns: ['Event', 'Result', 'License Key', 'IP Address', 'Hardware ID', 'Timestamp', 'Details'],
    row: (page) => page.locator('tr[data-log-id]', { hasText: 'Redemption code redeemed' }).first(),
    status: 'Success',
    actions: [],
  },
  {
    name: 'Hardware Bindings',
    path: '/admin/hardware-bindings',
    heading: 'Hardware Bindings',
    columns: ['Device Info', 'Hardware ID', 'License Key', 'Status', 'First Bound', 'Last Used', 'Actions'],
    row: (page) => page.locator('tr[data-binding-id]', { hasText: LONG_DEVICE.deviceName }),
    status: 'ACTIVE',
    actions: [{ role: 'button', name: 'Revoke binding' }],
  },
  {
    name: 'Redemption Codes',
    path: '/admin/redemption-keys',
    heading: 'Redemption Codes',
    columns: ['Redemption Code', 'Type', 'Status', 'Max Bindings', 'Created', 'Redeemed', 'Actions'],
    row: (page) => page.locator(`tr[data-code-id="${seeded.redemptionCodeId}"]`),
    status: 'Available',
    actions: [
      { role: 'button', name: 'Reveal code' },
      { role: 'button', name: 'Delete code' },
    ],
  },
  {
    name: 'File Manager',
    path: '/admin/file-manager',
    heading: 'Script File Manager',
    columns: ['Filename', 'Location', 'Size', 'Modified', 'URL', 'Actions'],
    row: (page) => page.locator(`tr[data-filename="${LONG_FILENAME}"]`),
    status: 'Hosted',
    actions: [
      { role: 'button', name: `Copy URL of ${LONG_FILENAME}` },
      { role: 'button', name: `Delete ${LONG_FILENAME}` },
    ],
  },
];

async function openScreen(page: Page, screen: TableScreen): Promise<Locator> {
  await page.goto(screen.path);
  await page.getByRole('heading', { name: screen.heading, exact: true }).waitFor();
  const row = screen.row(page);
  await row.getByText(screen.status, { exact: true }).waitFor();
  return row;
}

/** Where a table's cells lie against the box that scrolls it and the window. */
interface TableFit {
  /** How far the table's content reaches past its scroll box (0: nothing to scroll to). */
  hiddenWidth: number;
  /** How far the page itself scrolls sideways. */
  pageOverflow: number;
  /** Cells (by column) whose right edge lies past the scroll box's or the window's. */
  cut: string[];
}

function measureFit(table: Locator): Promise<TableFit> {
  return table.evaluate((node) => {
    const element = node as HTMLTableElement;
    let box = element.parentElement as HTMLElement;
    while (box !== document.body && getComputedStyle(box).overflowX === 'visible') {
      box = box.parentElement as HTMLElement;
    }
    const right = Math.min(box.getBoundingClientRect().right, window.innerWidth);
    const headers = [...element.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    const cut: string[] = [];
    // On phones the header row is left to screen readers (a 1 px clipped box): only what shows counts.
    const shown = [...element.rows].filter((row) => row.parentElement?.getBoundingClientRect().width !== 1);
    for (const row of shown) {
      row.querySelectorAll('th, td').forEach((cell, index) => {
        if (cell.getBoundingClientRect().right > right + 0.5)
          cut.push(headers[index] ?? `column ${index + 1}`);
      });
    }
    return {
      hiddenWidth: box.scrollWidth - box.clientWidth,
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      cut: [...new Set(cut)],
    };
  });
}

describe('admin tables fit the screen', () => {
  const suite = useBrowserSuite();

  beforeAll(async () => {
    const { context, page } = await newPage(suite.browser, suite.server.url);
    Object.assign(seeded, await seedRows(page, suite.server.url));
    await context.close();
  });

  // 1280 beside the sidebar; 1024 beside it too, the narrowest table; 768 with the sidebar folded away.
  const TABLE_CASES = SCREENS.flatMap((screen) =>
    [DESKTOP, SMALL_LAPTOP, TABLET].map((size) => ({ ...screen, size, width: size.width })),
  );

  it.each(TABLE_CASES)(
    '$name shows every column of its rows at $width px without sideways scrolling',
    async ({ size, ...screen }) => {
      const { page } = suite;
      await page.setViewportSize(size);
      await signIn(page, suite.server.url);
      const row = await openScreen(page, screen);
      const table = page.locator('table', { has: row });

      const headers = table.locator('thead th');
      expect(await headers.allInnerTexts()).toEqual(screen.columns);
      for (const header of await headers.all()) expect(await header.isVisible()).toBe(true);
      expect(await measureFit(table)).toEqual({ hiddenWidth: 0, pageOverflow: 0, cut: [] });
      for (const action of screen.actions) {
        expect(await row.getByRole(action.role, { name: action.name }).isVisible()).toBe(true);
      }
    },
  );

  it.each(SCREENS)(
    '$name shows each row as a card with its status and actions on a phone',
    async (screen) => {
      const { page } = suite;
      await page.setViewportSize(PHONE);
      await signIn(page, suite.server.url);
      const row = await openScreen(page, screen);
      const table = page.locator('table', { has: row });
      expect(await measureFit(table)).toEqual({ hiddenWidth: 0, pageOverflow: 0, cut: [] });

      // Every value carries its column's name beside it, since the header row is not shown.
      const labels = await row
        .locator('td')
        .evaluateAll((cells) =>
          cells.map((cell) => getComputedStyle(cell, '::before').content.replace(/^"|"$/g, '')),
        );
      expect(labels).toEqual(screen.columns);

      const status = row.getByText(screen.status, { exact: true });
      expect(await status.isVisible()).toBe(true);
      const statusBox = await status.boundingBox();
      expect(statusBox && statusBox.x >= 0 && statusBox.x + statusBox.width <= PHONE.width).toBe(true);

      for (const action of screen.actions) {
        const control = row.getByRole(action.role, { name: action.name });
        const box = await control.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, action.name).toBe(true);
        // Checks it is visible, enabled and the topmost element where a finger would press it.
        await control.click({ trial: true });
      }
    },
  );

  it('wraps a revealed 67-character script key inside its column at 1280 px', async () => {
    const { page } = suite;
    await page.setViewportSize(DESKTOP);
    await signIn(page, suite.server.url);
    const screen = SCREENS[1]!;
    const row = await openScreen(page, screen);
    await row.getByRole('button', { name: 'Reveal key' }).click();
    expect(await row.getByTestId('script-key').textContent()).toMatch(/^SK-[0-9a-f]{64}$/);
    expect(await measureFit(page.locator('table', { has: row }))).toEqual({
      hiddenWidth: 0,
      pageOverflow: 0,
      cut: [],
    });
  });

  it('opens a row action from its card on a phone', async () => {
    const { page } = suite;
    await page.setViewportSize(PHONE);
    await signIn(page, suite.server.url);
    const row = await openScreen(page, SCREENS[0]!);
    await row.getByRole('button', { name: 'Revoke key' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke this license key?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('ACTIVE', { exact: true }).waitFor();
  });
});
