import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, fromSrgb8 } from '../../web/test/contrast.ts';
import { E2E_ADMIN_SECRET, useBrowserSuite } from './harness.ts';

/** What a keyboard user sees around a focused control, with colours as 8-bit sRGB. */
interface FocusIndicator {
  focusVisible: boolean;
  outlineStyle: string;
  outlineWidth: number;
  outlineOffset: number;
  outline: [number, number, number];
  /** The control's own fill over what is behind it. */
  fill: [number, number, number];
  /** What is behind the control: its ancestors' backgrounds, composited. */
  surface: [number, number, number];
}

/** Reads the focused control's outline and the colours it must stand out from. */
function readFocusIndicator(control: Locator): Promise<FocusIndicator> {
  return control.evaluate(async (element) => {
    // Buttons fade their colours in (transition-colors covers the outline too): read the end state.
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    // A canvas paints any CSS colour (oklch included) to sRGB and composites translucent layers as
    // the page does.
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const paint = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const pixel = (): [number, number, number] => {
      const [r, g, b] = paint.getImageData(0, 0, 1, 1).data;
      // One pixel: four bytes, RGBA.
      return [r!, g!, b!];
    };
    const alphaOf = (color: string) => {
      paint.clearRect(0, 0, 1, 1);
      paint.fillStyle = color;
      paint.fillRect(0, 0, 1, 1);
      return paint.getImageData(0, 0, 1, 1).data[3];
    };
    const layers: string[] = [];
    for (let node = element.parentElement; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (alphaOf(background) === 0) continue;
      layers.unshift(background);
      if (alphaOf(background) === 255) break;
    }
    const composite = (colors: string[]) => {
      paint.clearRect(0, 0, 1, 1);
      for (const color of ['#fff', ...colors]) {
        paint.fillStyle = color;
        paint.fillRect(0, 0, 1, 1);
      }
      return pixel();
    };
    const style = getComputedStyle(element);
    return {
      focusVisible: element.matches(':focus-visible'),
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outlineOffset: Number.parseFloat(style.outlineOffset),
      outline: composite([style.outlineColor]),
      fill: composite([...layers, style.backgroundColor]),
      surface: composite(layers),
    };
  });
}

const ratio = (a: [number, number, number], b: [number, number, number]) =>
  contrastRatio(fromSrgb8(...a), fromSrgb8(...b));

/** Moves keyboard focus onto `control` the way a user does: Tab from the control before it. */
async function tabTo(page: Page, control: Locator): Promise<void> {
  await control.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  expect(await control.evaluate((element) => element === document.activeElement)).toBe(true);
}

/**
 * The control shows a focus outline at least 2 px wide that has 3:1 contrast (WCAG 1.4.11) with
 * what surrounds it: the surface behind the control, and the control's own fill unless a gap
 * (offset) separates the two.
 */
async function expectVisibleFocus(page: Page, control: Locator, name: string): Promise<void> {
  await tabTo(page, control);
  const focus = await readFocusIndicator(control);
  expect(focus.focusVisible, name).toBe(true);
  expect(focus.outlineStyle, name).not.toBe('none');
  expect(focus.outlineWidth, name).toBeGreaterThanOrEqual(2);
  expect(ratio(focus.outline, focus.surface), `${name}: outline against the surface`).toBeGreaterThanOrEqual(
    3,
  );
  if (focus.outlineOffset < 1) {
    expect(ratio(focus.outline, focus.fill), `${name}: outline against its fill`).toBeGreaterThanOrEqual(3);
  }
}

async function signIn(page: Page, origin: string): Promise<void> {
  const res = await page.request.post('/api/admin/login', {
    data: { adminSecret: E2E_ADMIN_SECRET },
    headers: { Origin: origin },
  });
  expect(res.status()).toBe(200);
}

describe('keyboard focus is visible on every kind of control', () => {
  const suite = useBrowserSuite();

  it('shows a focus ring around a focused primary button', async () => {
    const { page, server } = suite;
    await signIn(page, server.url);
    await page.goto('/admin/script-keys');
    const create = page.getByRole('button', { name: 'Create Script Key' });
    await expectVisibleFocus(page, create, 'primary button');
  });

  it('shows a focus ring on inputs, selects, switches, icon and outline buttons, tabs and sidebar links', async () => {
    const { page, server } = suite;
    await signIn(page, server.url);
    const created = await page.request.post('/api/admin/script-keys/create', {
      data: { scriptType: 'PREMIUM', notes: 'e2e focus' },
      headers: { Origin: server.url },
    });
    expect(created.status()).toBe(201);

    await page.goto('/admin/script-keys');
    const row = page.locator('tr', { hasText: 'e2e focus' });
    await row.getByRole('switch').waitFor();
    await expectVisibleFocus(
      page,
      page.getByRole('searchbox', { name: 'Search script keys' }),
      'search input',
    );
    await expectVisibleFocus(page, page.getByRole('combobox', { name: 'Filter by status' }), 'select');
    await expectVisibleFocus(page, row.getByRole('switch', { name: 'Key active' }), 'switch');
    await expectVisibleFocus(page, row.getByRole('button', { name: 'Reveal key' }), 'ghost icon button');
    await expectVisibleFocus(
      page,
      page.getByRole('button', { name: 'Refresh script keys' }),
      'refresh button',
    );
    await expectVisibleFocus(
      page,
      page.getByRole('navigation', { name: 'Admin' }).getByRole('link').first(),
      'sidebar link',
    );

    await row.getByRole('button', { name: 'Delete key' }).click();
    const dialog = page.getByRole('alertdialog');
    await expectVisibleFocus(page, dialog.getByRole('button', { name: 'Cancel' }), 'outline button');
    await expectVisibleFocus(page, dialog.getByRole('button', { name: 'Delete Key' }), 'destructive button');
    await page.keyboard.press('Escape');

    await page.goto('/admin/system-configuration');
    await expectVisibleFocus(page, page.getByRole('tab', { name: 'Overview' }), 'tab');
  });
});
