import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildLoaderSnippet } from '../../common/loader-snippet.ts';
import type { ScriptVersionsResponse } from '../../common/scripts.ts';
import { EDITOR_KEYBOARD_HINT } from '../../web/components/code-editor.tsx';
import { loginAsAdmin, toastTitled, useBrowserSuite } from './harness.ts';

async function openScriptManagement(page: Page): Promise<void> {
  await loginAsAdmin(page);
  await page.goto('/admin/script-management');
  await page.getByRole('heading', { name: 'Script Management' }).waitFor();
}

/** The script picker once it shows `name`. */
async function pickerShows(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Script' }).filter({ hasText: name }).waitFor();
}

async function createScript(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Create Script' }).click();
  await page.getByLabel('Script Name').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await toastTitled(page, 'Script Created').waitFor();
  await pickerShows(page, `${name}.lua`);
}

/** Types at the end of the script editor with the keyboard, as the admin would. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Script editor' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

function editorText(page: Page): Promise<string> {
  return page.getByRole('textbox', { name: 'Script editor' }).innerText();
}

function saveState(page: Page) {
  return page.getByTestId('save-state');
}

describe('script management in the browser', () => {
  const suite = useBrowserSuite();

  it('opens the universal script, creates a script, deploys an edit, loads and compares versions', async () => {
    const { page } = suite;
    await openScriptManagement(page);
    await pickerShows(page, 'scanline-universal.lua');

    await createScript(page, 'e2e-farm');
    expect(await editorText(page)).toContain('-- e2e-farm.lua');
    expect(await saveState(page).innerText()).toBe('Saved');

    await typeAtEnd(page, 'print("edited by e2e")');
    await saveState(page).filter({ hasText: 'Modified' }).waitFor();
    await page.getByLabel('Version Notes (optional)').fill('First edit');
    await page.getByRole('button', { name: 'Save & Deploy' }).click();
    await toastTitled(page, 'Script Updated').waitFor();
    const version2 = page.getByRole('listitem', { name: 'Version 2' });
    await version2.getByText('First edit').waitFor();
    await saveState(page).filter({ hasText: 'Saved' }).waitFor();

    await page.getByRole('button', { name: 'Load version 1' }).click();
    await toastTitled(page, 'Version Loaded').waitFor();
    await saveState(page).filter({ hasText: 'Modified' }).waitFor();
    const loaded = await editorText(page);
    expect(loaded).toContain('-- e2e-farm.lua');
    expect(loaded).not.toContain('edited by e2e');

    await page.getByRole('button', { name: 'Compare version 2 with the editor' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('textbox', { name: 'Version 2' }).innerText()).toContain(
      'print("edited by e2e")',
    );
    expect(await dialog.getByRole('textbox', { name: 'Editor' }).innerText()).not.toContain('edited by e2e');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('refuses Lua that does not parse, showing its line, and keeps the deployed version', async () => {
    const { page } = suite;
    await openScriptManagement(page);
    await createScript(page, 'e2e-broken');

    await typeAtEnd(page, 'local speed = = 16');
    await page.getByRole('button', { name: 'Save & Deploy' }).click();
    await toastTitled(page, 'Deploy Failed').waitFor();
    await page.getByRole('alert').filter({ hasText: 'Lua syntax error on line 3:' }).waitFor();
    // The editor marks the refused spot as well.
    await page.locator('.cm-lint-marker-error').first().waitFor();
    expect(await saveState(page).innerText()).toBe('Modified');

    const answer = await page.request.get('/api/admin/scripts/e2e-broken.lua/versions');
    const { versions } = (await answer.json()) as ScriptVersionsResponse;
    expect(versions.map((v) => v.version)).toEqual([1]);
    expect(await page.getByRole('listitem', { name: 'Version 2' }).count()).toBe(0);
  });

  it('copies the free loader string of the open script', async () => {
    const { page, server } = suite;
    await openScriptManagement(page);
    await pickerShows(page, 'scanline-universal.lua');
    await page.getByRole('button', { name: 'Copy free loader' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(buildLoaderSnippet(server.url, 'scanline-universal.lua'));
  });
  it('is reached, used and left with the keyboard alone: Tab indents, Escape then Tab moves on', async () => {
    const { page } = suite;
    await openScriptManagement(page);
    await pickerShows(page, 'scanline-universal.lua');
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id);
    const notes = page.getByLabel('Version Notes (optional)');
    const notesId = await notes.getAttribute('id');

    // Into the editor backwards from the field after it, and forwards from the control before it.
    await notes.focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Script editor');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).not.toBe('Script editor');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Script editor');

    // Typing edits the script; Tab indents the line rather than leaving.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('print("typed by keyboard")');
    expect(await focused()).toBe('Script editor');
    expect(await editorText(page)).toMatch(/\n\s+print\("typed by keyboard"\)/);
    await saveState(page).filter({ hasText: 'Modified' }).waitFor();

    // Escape, then Tab: on to the notes field, as the hint under the editor says.
    const hint = page.getByText(EDITOR_KEYBOARD_HINT);
    expect(await hint.isVisible()).toBe(true);
    const describedBy = await page
      .getByRole('textbox', { name: 'Script editor' })
      .getAttribute('aria-describedby');
    expect(describedBy).toBe(await hint.getAttribute('id'));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(notesId);
  });
});
