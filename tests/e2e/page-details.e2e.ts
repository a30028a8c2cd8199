import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_LOGIN_PATH,
  ADMIN_LOGIN_TITLE,
  ADMIN_ROOT_PATH,
  ADMIN_SCREEN_SEGMENTS,
  ADMIN_SCREEN_TITLES,
  type AdminScreenName,
  PUBLIC_PAGE_TITLES,
  publicPageAt,
  WEB_PAGE_PATHS,
} from '../../common/web-routes.ts';
import { ORDER_PAGE_EXAMPLE, useBrowserSuite } from './harness.ts';
import { adminPost, LONG_FILENAME, seedRows, signIn } from './realistic-data.ts';

/*
 * The small things an operator's walk at 1280 x 800 found (issue 38, item 8): every page titled
 * "Scanline", the date picker's icon black on the dark fields, the File Manager's URL column hiding
 * the file name, device bindings reading "Unknown Device" with their ids cut, and header buttons
 * wrapping onto a second row.
 */

const isAdminScreen = (path: string) =>
  path !== ADMIN_LOGIN_PATH && (path === ADMIN_ROOT_PATH || path.startsWith(`${ADMIN_ROOT_PATH}/`));

/** The title each page should have, from the one table that names them (common/web-routes.ts). */
function expectedTitle(path: string): string {
  if (path === ADMIN_LOGIN_PATH) return ADMIN_LOGIN_TITLE;
  if (path === ADMIN_ROOT_PATH) return ADMIN_SCREEN_TITLES.dashboard;
  const screen = Object.entries(ADMIN_SCREEN_SEGMENTS).find(([, segment]) => path === `/admin/${segment}`);
  if (screen) return ADMIN_SCREEN_TITLES[screen[0] as AdminScreenName];
  const publicPage = publicPageAt(path);
  if (!publicPage) throw new Error(`${path}: no page`);
  return PUBLIC_PAGE_TITLES[publicPage];
}

/**
 * Where `text` (a part of `element`'s text) is drawn, as boxes, and whether each lies inside the
 * element's own box: false for characters cut off by an ellipsis or pushed out of a clipped box.
 */
function textShownWhole(element: Locator, text: string): Promise<boolean> {
  return element.evaluate((el, wanted) => {
    const whole = el.textContent ?? '';
    const start = whole.lastIndexOf(wanted);
    if (start < 0) return false;
    const range = document.createRange();
    let offset = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0;
      if (start >= offset && start < offset + length) range.setStart(node, start - offset);
      if (start + wanted.length > offset && start + wanted.length <= offset + length)
        range.setEnd(node, start + wanted.length - offset);
      offset += length;
    }
    const box = el.getBoundingClientRect();
    // Each character's box: an ellipsis hides those past the clipped edge, which still get a box there.
    for (const part of Array.from(range.getClientRects())) {
      if (part.width === 0) continue;
      if (part.left < box.left - 1 || part.right > box.right + 1) return false;
      if (part.top < box.top - 1 || part.bottom > box.bottom + 1) return false;
    }
    // And no clipped ancestor up to the row cuts it.
    for (let parent: Element | null = el; parent && parent.tagName !== 'TR'; parent = parent.parentElement) {
      if (parent.scrollWidth > parent.clientWidth + 1 && getComputedStyle(parent).overflowX !== 'visible')
        return false;
    }
    return true;
  }, text);
}

/** Waits for the screen's heading and its data, so the header holds all its buttons. */
async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

describe('the details of every page', () => {
  const suite = useBrowserSuite();

  it('titles each page by what it is, in the HTML and once the console has routed', async () => {
    const { page, server } = suite;
    const publicPaths = [...WEB_PAGE_PATHS.filter((path) => !isAdminScreen(path)), ORDER_PAGE_EXAMPLE];
    const seen = new Map<string, string>();
    for (const path of publicPaths) {
      await page.goto(path, { waitUntil: 'networkidle' });
      await expect.poll(() => page.title(), { message: path }).toBe(expectedTitle(path));
      seen.set(path, await page.title());
      if (path !== ADMIN_LOGIN_PATH) {
        // In the prerendered HTML already: a tab or bookmark reads right before any script runs.
        const html = await (await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } })).text();
        expect(html, path).toContain(`<title>${expectedTitle(path).replaceAll('&', '&amp;')}</title>`);
      }
    }
    await signIn(page, server.url);
    for (const path of WEB_PAGE_PATHS.filter(isAdminScreen)) {
      await page.goto(path);
      await expect.poll(() => page.title(), { message: path }).toBe(expectedTitle(path));
      seen.set(path, await page.title());
    }
    // Told apart in tabs and history: one title a page (/admin is the dashboard, /script is /scripts).
    const pages = [...seen].filter(([path]) => path !== ADMIN_ROOT_PATH && path !== '/script');
    expect(new Set(pages.map(([, title]) => title)).size).toBe(pages.length);
    expect(seen.get('/admin/live-monitoring')).toBe('Live Monitoring · Scanline');
  });

  it('draws native control parts for a dark page: the date picker of a dark field, a public field', async () => {
    const { page, server } = suite;
    await signIn(page, server.url);
    await page.goto('/admin/license-keys');
    await page.getByRole('button', { name: 'Generate Key' }).click();
    const date = page.getByLabel('Expires At (optional)');
    expect(await date.evaluate((input) => getComputedStyle(input).colorScheme)).toBe('dark');
    await page.goto('/key');
    const field = page.locator('input').first();
    expect(await field.evaluate((input) => getComputedStyle(input).colorScheme)).toBe('dark');
  });

  it("shows the file name in the File Manager's URL column, however long the URL", async () => {
    const { page, server } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await seedRows(page, server.url);
    await openScreen(page, '/admin/file-manager');
    for (const name of [LONG_FILENAME, 'scanline-premium.lua']) {
      const url = page.locator(`tr[data-filename="${name}"]`).getByTestId('file-url');
      expect(await url.textContent(), name).toMatch(
        new RegExp(`^https?://.+/${name.replaceAll('.', '\\.')}$`),
      );
      expect(await textShownWhole(url, name), name).toBe(true);
    }
  });

  it('says why a bound device has no name and shows its whole hardware ID, which it copies', async () => {
    const { page, server } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, server.url);
    const { redemptionKey } = await adminPost<{ redemptionKey: { redemptionCode: string } }>(
      page,
      server.url,
      '/api/admin/create-redemption-key',
      { keyType: 'PREMIUM', maxHardwareBindings: 1, validityDuration: 24 },
    );
    // What the free script sends where the executor has no gethwid(): Roblox's client id, no device details.
    const clientId = '6F9619FF-8B86-D011-B42D-00CF4FC964FF';
    await adminPost(
      page,
      server.url,
      '/api/script/redeem',
      { code: redemptionKey.redemptionCode, hwid: clientId },
      200,
    );
    await openScreen(page, '/admin/hardware-bindings');
    const row = page.getByRole('row').filter({ has: page.getByTitle(clientId) });
    const device = row.locator('td').first();
    expect(await device.getByText('Unknown Device').getAttribute('title')).toBe(
      'The executor sent no device name',
    );
    expect(await device.getByText('Roblox client id').getAttribute('title')).toMatch(
      /no hardware id of its own/,
    );

    const id = row.getByTitle(clientId);
    expect(await id.textContent()).toBe(clientId);
    // Its end in view whatever the column's width (the start gives way first).
    expect(await textShownWhole(id, clientId.slice(-8))).toBe(true);
    await row.getByRole('button', { name: 'Copy hardware ID' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clientId);
  });

  it("keeps each admin header's buttons on one line at 1280 x 800", async () => {
    const { page, server } = suite;
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, server.url);
    const wrapped: Record<string, string[]> = {};
    for (const segment of Object.values(ADMIN_SCREEN_SEGMENTS)) {
      await openScreen(page, `/admin/${segment}`);
      const problems = await page
        .locator('main header')
        .first()
        .evaluate((header) => {
          const found: string[] = [];
          const controls = Array.from(
            header.querySelectorAll<HTMLElement>('button, a, [role="status"]'),
          ).filter((control) => control.getBoundingClientRect().width > 0);
          for (const control of controls) {
            const box = control.getBoundingClientRect();
            const lineHeight = Number.parseFloat(getComputedStyle(control).lineHeight) || 20;
            // A button's own text on one line.
            if (control.tagName === 'BUTTON' && box.height > Math.max(44, lineHeight * 2))
              found.push(`"${control.innerText}" wraps its text`);
          }
          const tops = controls.map((control) => Math.round(control.getBoundingClientRect().top));
          const centres = controls.map((control) => {
            const box = control.getBoundingClientRect();
            return box.top + box.height / 2;
          });
          if (centres.length > 1 && Math.max(...centres) - Math.min(...centres) > 12)
            found.push(`buttons on more than one line (tops ${tops.join(', ')})`);
          return found;
        });
      if (problems.length > 0) wrapped[segment] = problems;
    }
    expect(wrapped).toEqual({});
  });
});
