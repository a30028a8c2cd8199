import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  loginAsAdmin,
  loginThroughApi,
  newPage,
  sameOriginHeaders,
  toastTitled,
  useBrowserSuite,
} from './harness.ts';

const DELETE_WARNING =
  'Are you sure you want to delete the file? This action cannot be undone and will break any scripts using this URL.';

/** A script whose bytes a careless pipeline would change: a UTF-8 BOM, CRLF line ends, non-ASCII text. */
const TRICKY_SCRIPT = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('-- e2e upload\r\nlocal greeting = "héllo, wörld"\r\nprint(greeting)\r\n', 'utf8'),
]);

async function openFileManager(page: Page): Promise<void> {
  await loginAsAdmin(page);
  await page.goto('/admin/file-manager');
  await page.getByRole('heading', { name: 'Script File Manager' }).waitFor();
}

function fileRow(page: Page, filename: string) {
  return page.locator(`tr[data-filename="${filename}"]`);
}

async function pickFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByLabel('Script file (.lua)').setInputFiles({ name, mimeType: 'text/plain', buffer });
}

describe('file manager in the browser', () => {
  const suite = useBrowserSuite();

  it('uploads a .lua file, lists it as Hosted and serves back exactly the bytes sent', async () => {
    const { page } = suite;
    await openFileManager(page);
    const upload = page.getByRole('button', { name: 'Upload', exact: true });
    expect(await upload.isDisabled()).toBe(true);

    await pickFile(page, 'e2e-bytes.lua', TRICKY_SCRIPT);
    const summary = page.getByRole('region', { name: 'Selected file' });
    await summary.getByText('e2e-bytes.lua').waitFor();
    await summary.getByText('hosted-scripts/').waitFor();
    await summary.getByText('Public').waitFor();
    await upload.click();
    await toastTitled(page, 'File Uploaded').waitFor();
    await page.getByText('No file selected.').waitFor();
    expect(await page.getByLabel('Script file (.lua)').inputValue()).toBe('');

    const row = fileRow(page, 'e2e-bytes.lua');
    await row.getByText('Hosted', { exact: true }).waitFor();
    await row.getByText(`${TRICKY_SCRIPT.length} B`, { exact: true }).waitFor();
    const url = (await row.getByTestId('file-url').textContent()) ?? '';
    expect(url).toBe(`${suite.server.url}/api/hosted-scripts/e2e-bytes.lua`);

    const download = await page.request.get(url);
    expect(download.status()).toBe(200);
    expect(Buffer.compare(await download.body(), TRICKY_SCRIPT)).toBe(0);
    expect(download.headers()['content-disposition']).toContain('attachment');

    await row.getByRole('button', { name: 'Copy URL of e2e-bytes.lua' }).click();
    await toastTitled(page, 'Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  });

  it('keeps a private upload from visitors without a session', async () => {
    const { page, browser, server } = suite;
    await openFileManager(page);
    await pickFile(page, 'e2e-private.lua', Buffer.from('print("members only")\n'));
    await page.getByRole('radio', { name: 'Private: requires authentication' }).check();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastTitled(page, 'File Uploaded').waitFor();
    const row = fileRow(page, 'e2e-private.lua');
    await row.getByText('Private', { exact: true }).waitFor();

    const url = (await row.getByTestId('file-url').textContent()) ?? '';
    expect((await page.request.get(url)).status()).toBe(200);
    const visitor = await newPage(browser, server.url);
    try {
      const refused = await visitor.page.request.get(url);
      expect(refused.ok()).toBe(false);
      expect((await refused.body()).includes('members only')).toBe(false);
    } finally {
      await visitor.context.close();
    }
  });

  it('refuses a file that is not .lua before anything is sent', async () => {
    const { page } = suite;
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/scripts/upload')) uploads.push(request.url());
    });
    await openFileManager(page);
    await pickFile(page, 'notes.txt', Buffer.from('not a script'));
    await toastTitled(page, 'Invalid File Type').waitFor();
    await page.getByText('Please select a .lua file').first().waitFor();
    await page.getByText('No file selected.').waitFor();
    expect(await page.getByLabel('Script file (.lua)').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    expect(uploads).toEqual([]);
  });

  it('refuses Lua with a syntax error and names the line', async () => {
    const { page } = suite;
    await openFileManager(page);
    await pickFile(page, 'e2e-broken.lua', Buffer.from('local a = 1\nlocal b = = 2\nprint(a)\n'));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastTitled(page, 'Upload Failed').waitFor();
    await page
      .getByText(/Lua syntax error on line 2/)
      .first()
      .waitFor();
    // The selection stays for a corrected try, and nothing was stored.
    await page.getByRole('region', { name: 'Selected file' }).getByText('e2e-broken.lua').waitFor();
    expect(await fileRow(page, 'e2e-broken.lua').count()).toBe(0);
  });

  it('will not delete the shipped project file', async () => {
    const { page } = suite;
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request.url());
    });
    await openFileManager(page);
    const row = fileRow(page, 'scanline-free.lua');
    await row.getByText('Project', { exact: true }).waitFor();
    const button = row.getByRole('button', { name: /Delete/ });
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    // Playwright will not click an aria-disabled control; a person can, and is told why.
    await button.click({ force: true });
    await toastTitled(page, 'Cannot Delete').waitFor();
    await page.getByText('Project files cannot be deleted from the file manager').first().waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(deletes).toEqual([]);
    expect(await row.count()).toBe(1);
  });

  it('deletes an uploaded file after the confirmation, and its URL stops serving', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const created = await page.request.post('/api/admin/scripts/upload', {
      headers: sameOriginHeaders(page),
      multipart: {
        directory: 'hosted-scripts',
        isPublic: 'true',
        file: { name: 'e2e-doomed.lua', mimeType: 'text/plain', buffer: Buffer.from('print("bye")\n') },
      },
    });
    expect(created.ok()).toBe(true);

    await page.goto('/admin/file-manager');
    const row = fileRow(page, 'e2e-doomed.lua');
    const url = (await row.getByTestId('file-url').textContent()) ?? '';
    expect((await page.request.get(url)).status()).toBe(200);

    await row.getByRole('button', { name: 'Delete e2e-doomed.lua' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(DELETE_WARNING, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Delete File' }).click();
    await toastTitled(page, 'File Deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await page.request.get(url)).status()).toBe(404);
  });
});
