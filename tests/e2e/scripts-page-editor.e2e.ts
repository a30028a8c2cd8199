import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../common/scripts-page.ts';
import { loginAsAdmin, sameOriginHeaders, toastTitled, useBrowserSuite } from './harness.ts';

const PHONE = { width: 390, height: 844 };
/** A title with a word longer than a phone is wide, as a shop's name can be. */
const LONG_TITLE = 'Scanline Supercalifragilisticexpialidocious Scanner Scripts';

/** Whether the element shows whole on the page: nothing cut inside it, nothing past the viewport's sides. */
async function shownWhole(element: Locator, page: Page): Promise<boolean> {
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  const fits = await element.evaluate((el) => el.scrollWidth <= el.clientWidth);
  return box !== null && fits && box.x >= 0 && box.x + box.width <= width;
}

async function openEditor(page: Page): Promise<void> {
  await loginAsAdmin(page);
  await page.goto('/admin/scripts-page-editor');
  await page.getByRole('heading', { name: 'Scripts Page Editor' }).waitFor();
}

describe('scripts page editor in the browser', () => {
  const suite = useBrowserSuite();

  it('adds a section with a button, moves it up, saves, and /scripts shows it in the new order', async () => {
    const { page } = suite;
    await loginAsAdmin(page);
    await page.goto('/admin/scripts-page-editor');
    await page.getByRole('heading', { name: 'Scripts Page Editor' }).waitFor();
    await page.getByRole('tab', { name: 'Sections' }).click();

    // A fresh server shows the default page: Free Scanner, then Premium Scanner.
    const sectionCards = page.getByRole('group', { name: /^Section / });
    await sectionCards.first().waitFor();
    expect(await sectionCards.evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')))).toEqual(
      ['Section Free Scanner', 'Section Premium Scanner'],
    );
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Add Section' }).click();
    await page
      .getByRole('group', { name: 'Section New Section' })
      .getByLabel('Title', { exact: true })
      .fill('Community Tools');
    const section = page.getByRole('group', { name: 'Section Community Tools' });
    await section.getByRole('button', { name: 'Add Button' }).click();
    const newButton = section.getByRole('group', { name: 'Button New Button' });
    await newButton.getByLabel('File', { exact: true }).fill(FREE_SCRIPT_FILE);
    await newButton.getByLabel('Label', { exact: true }).fill('Get Community Tools');
    await section.getByRole('group', { name: 'Button Get Community Tools' }).waitFor();

    await section.getByRole('button', { name: 'Move section Community Tools up' }).click();
    expect(await sectionCards.evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')))).toEqual(
      ['Section Free Scanner', 'Section Community Tools', 'Section Premium Scanner'],
    );
    await page.getByText('Unsaved Changes').waitFor();

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastTitled(page, 'Configuration Saved!').waitFor();
    await page.getByText('Unsaved Changes').waitFor({ state: 'detached' });

    await page.goto('/scripts');
    const community = page.getByRole('region', { name: 'Community Tools' });
    await community.waitFor();
    expect(await community.getByRole('button', { name: 'Get Community Tools' }).isVisible()).toBe(true);
    const headings = await page.locator('section[aria-labelledby] h2').allTextContents();
    expect(headings).toEqual(['Free Scanner', 'Community Tools', 'Premium Scanner']);
  });

  it('warns about a button whose file is not hosted, marks it in the preview, and saves only when told to', async () => {
    const { page } = suite;
    await openEditor(page);
    await page.getByRole('tab', { name: 'Sections' }).click();
    await page.getByRole('button', { name: 'Add Section' }).click();
    await page
      .getByRole('group', { name: 'Section New Section' })
      .getByLabel('Title', { exact: true })
      .fill('Extra Tools');
    const section = page.getByRole('group', { name: 'Section Extra Tools' });
    await section.getByRole('button', { name: 'Add Button' }).click();
    const button = section.getByRole('group', { name: 'Button New Button' });
    await button.getByLabel('Label', { exact: true }).fill('Get Extra Tools');
    await section
      .getByRole('group', { name: 'Button Get Extra Tools' })
      .getByLabel('File', { exact: true })
      .fill('extra-tools.lua');
    const problem =
      'extra-tools.lua is not in the File Manager: visitors who press it get "Download Failed".';
    await section.getByText(problem).waitFor();

    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByTestId('scripts-page-preview');
    const marked = preview.getByRole('button', { name: 'Get Extra Tools' });
    await marked.waitFor();
    expect(await marked.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      await preview.locator(`[id="${await marked.getAttribute('aria-describedby')}"]`).textContent(),
    ).toBe(problem);

    await page.getByRole('button', { name: 'Save Changes' }).click();
    const warning = page.getByRole('alertdialog', { name: 'Save with a button that fails?' });
    await warning.waitFor();
    expect(await warning.getByRole('listitem').allTextContents()).toEqual([
      `"Get Extra Tools" in Extra Tools: ${problem}`,
    ]);
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'detached' });
    expect(await page.getByText('Unsaved Changes').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await warning.getByRole('button', { name: 'Save Anyway' }).click();
    await toastTitled(page, 'Configuration Saved!').waitFor();
    // A file that is hosted raises nothing: the default buttons' file is.
    await page.getByRole('tab', { name: 'Sections' }).click();
    expect(await page.getByText(/is not in the File Manager/).count()).toBe(1);
  });

  it('keeps a long header title whole on a phone, in the preview and on /scripts', async () => {
    const { page } = suite;
    await page.setViewportSize(PHONE);
    await openEditor(page);
    await page.getByLabel('Header Title').fill(LONG_TITLE);
    await page.getByRole('tab', { name: 'Preview' }).click();
    const previewTitle = page.getByTestId('scripts-page-preview').getByRole('heading', { name: LONG_TITLE });
    await previewTitle.waitFor();
    expect(await shownWhole(previewTitle, page)).toBe(true);
    const preview = await page.getByTestId('scripts-page-preview').boundingBox();
    const title = await previewTitle.boundingBox();
    expect(title!.x).toBeGreaterThanOrEqual(preview!.x);
    expect(title!.x + title!.width).toBeLessThanOrEqual(preview!.x + preview!.width);

    // Saved as the editor saves it (the other tests' buttons left as they are).
    const stored = await page.request.get('/api/admin/scripts-page-config');
    const { config } = (await stored.json()) as { config: ScriptsPageConfig };
    const saved = await page.request.put('/api/admin/scripts-page-config', {
      data: { ...config, headerTitle: LONG_TITLE },
      headers: sameOriginHeaders(page),
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await page.goto('/scripts');
    const publicTitle = page.getByRole('heading', { level: 1, name: LONG_TITLE });
    await publicTitle.waitFor();
    expect(await shownWhole(publicTitle, page)).toBe(true);
  });
});
