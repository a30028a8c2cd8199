import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../common/public-defaults.ts';
import { loginAsAdmin, toastTitled, useBrowserSuite } from './harness.ts';

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
});
