import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api.ts';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { toast } from '@/lib/toast.ts';
import { type UploadOptions, uploadWithProgress } from '@/lib/upload.ts';
import { json, mockFetch } from '@/test/render.tsx';
import {
  MAX_SCRIPT_BYTES,
  type ScriptFileRecord,
  type UploadScriptResponse,
} from '../../../../common/scripts.ts';
import { renderAt } from '../shared/test-utils.tsx';
import FileManagerPage from './file-manager.tsx';

vi.mock('@/lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/toast.ts')>()),
  toast: vi.fn(),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));
vi.mock('@/lib/clipboard.ts', () => ({ copyToClipboard: vi.fn(async () => true) }));
// The XHR itself is tested in web/lib/upload.test.ts; here the test plays the server's side of it.
vi.mock('@/lib/upload.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/upload.ts')>()),
  uploadWithProgress: vi.fn(),
}));

/** A file's name in the Filename column (the URL column ends with it too). */
const IN_FILENAME = { selector: '[data-label="Filename"] span' };

const LIST_URL = '/api/admin/all-scripts/list';
const DELETE_WARNING =
  'Are you sure you want to delete the file? This action cannot be undone and will break any scripts using this URL.';

/** Unix seconds of a local wall-clock time, so the expected Modified text does not hang on the zone. */
function localSeconds(year: number, monthIndex: number, day: number, hour: number, minute: number): number {
  return new Date(year, monthIndex, day, hour, minute).getTime() / 1000;
}

function fileRecord(overrides: Partial<ScriptFileRecord> = {}): ScriptFileRecord {
  const filename = overrides.filename ?? 'farm.lua';
  return {
    id: 5,
    filename,
    storedFilename: `hosted-scripts/${filename}`,
    fileSize: 1536,
    location: 'hosted-scripts',
    uploadedAt: localSeconds(2026, 10, 22, 14, 5),
    url: `/api/hosted-scripts/${filename}`,
    isPublic: true,
    accessType: 'FREE',
    ...overrides,
  };
}

const shippedFile = fileRecord({
  id: 1,
  filename: 'scanline-free.lua',
  storedFilename: 'scripts/scanline-free.lua',
  location: 'project',
  fileSize: 300,
  uploadedAt: localSeconds(2026, 0, 3, 9, 30),
});

/** A server holding `initial` files, recording the method and URL of every call. */
function fakeServer(initial: ScriptFileRecord[]) {
  let files = [...initial];
  const calls: string[] = [];
  const fetchMock = mockFetch({
    [LIST_URL]: () => {
      calls.push(`GET ${LIST_URL}`);
      return json(files);
    },
    'DELETE /api/admin/hosted-scripts/5': () => {
      calls.push('DELETE /api/admin/hosted-scripts/5');
      const removed = files.find((f) => f.id === 5);
      files = files.filter((f) => f.id !== 5);
      return json({ success: true, filename: removed?.filename });
    },
  });
  return {
    calls,
    fetchMock,
    add: (file: ScriptFileRecord) => {
      files = [...files, file];
    },
  };
}

/** The next upload, held open until the test answers it. */
function holdNextUpload() {
  const held: { form?: FormData; options?: UploadOptions } = {};
  let settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void } | undefined;
  vi.mocked(uploadWithProgress).mockImplementationOnce((_url, form, options) => {
    held.form = form;
    held.options = options;
    return new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
  });
  return {
    held,
    progress: (fraction: number) => act(() => held.options?.onProgress?.(fraction)),
    succeed: (response: UploadScriptResponse) => act(async () => settle?.resolve(response)),
    fail: (error: unknown) => act(async () => settle?.reject(error)),
  };
}

function fileInput(): HTMLInputElement {
  return screen.getByLabelText('Script file (.lua)');
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
  vi.mocked(copyToClipboard).mockClear();
  vi.mocked(uploadWithProgress).mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FileManagerPage', () => {
  it('lists every file with its location, size, modified date and full URL', async () => {
    const user = userEvent.setup();
    fakeServer([shippedFile, fileRecord({ isPublic: false })]);
    renderAt(<FileManagerPage />, '/admin/file-manager');

    const hosted = (await screen.findByText('farm.lua', IN_FILENAME)).closest('tr')!;
    expect(within(hosted).getByText('Hosted')).toBeTruthy();
    expect(within(hosted).getByText('Private')).toBeTruthy();
    expect(within(hosted).getByText('1.5 KB')).toBeTruthy();
    // The day over the time in the table; read as one text.
    expect(hosted.querySelector('td[data-label="Modified"]')?.textContent).toBe('Nov 22, 2026 2:05 PM');
    const url = `${window.location.origin}/api/hosted-scripts/farm.lua`;
    expect(within(hosted).getByTestId('file-url').textContent).toBe(url);
    // The file name is the part that stays in view when the column cuts the URL.
    expect(within(hosted).getByTestId('file-url').querySelector('[data-part="tail"]')?.textContent).toBe(
      'farm.lua',
    );

    const shipped = screen.getByText('scanline-free.lua', IN_FILENAME).closest('tr')!;
    expect(within(shipped).getByText('Project')).toBeTruthy();
    expect(within(shipped).queryByText('Private')).toBeNull();
    expect(within(shipped).getByText('300 B')).toBeTruthy();
    expect(shipped.querySelector('td[data-label="Modified"]')?.textContent).toBe('Jan 3, 2026 9:30 AM');

    await user.click(within(hosted).getByRole('button', { name: 'Copy URL of farm.lua' }));
    expect(copyToClipboard).toHaveBeenCalledWith(url, expect.any(String));
  });

  it('shows placeholder rows while loading, then the empty text', async () => {
    let answer: (res: Response) => void = () => {};
    mockFetch({ [LIST_URL]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderAt(<FileManagerPage />, '/admin/file-manager');
    expect(screen.getAllByTestId('file-row-placeholder')).toHaveLength(3);

    await act(async () => answer(json([])));
    expect(await screen.findByText('No files found. Upload your first .lua script file above.')).toBeTruthy();
    expect(screen.queryAllByTestId('file-row-placeholder')).toHaveLength(0);
  });

  it("says so when the list can't be loaded", async () => {
    mockFetch({ [LIST_URL]: () => json({ error: 'Database unavailable' }, 503) });
    renderAt(<FileManagerPage />, '/admin/file-manager');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to load script files: Database unavailable',
    );
  });

  it('refuses a file that is not .lua and clears the selection', async () => {
    // applyAccept off: a person can still pick "All files" in the browser's dialog.
    const user = userEvent.setup({ applyAccept: false });
    fakeServer([]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    await screen.findByText('No files found. Upload your first .lua script file above.');

    await user.upload(fileInput(), new File(['print(1)'], 'good.lua'));
    expect(within(screen.getByRole('region', { name: 'Selected file' })).getByText('good.lua')).toBeTruthy();

    await user.upload(fileInput(), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'Invalid File Type',
      description: 'Please select a .lua file',
      variant: 'destructive',
    });
    expect(fileInput().value).toBe('');
    expect(screen.getByText('No file selected.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
  });

  it('refuses a file over 1 MiB before sending it', async () => {
    const user = userEvent.setup();
    fakeServer([]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    await user.upload(fileInput(), new File([new Uint8Array(MAX_SCRIPT_BYTES + 1)], 'huge.lua'));
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'File Too Large', variant: 'destructive' }),
    );
    expect(screen.getByText('No file selected.')).toBeTruthy();
    expect(uploadWithProgress).not.toHaveBeenCalled();
  });

  it('uploads the file with its location and access, shows the progress, then lists it', async () => {
    const user = userEvent.setup();
    const server = fakeServer([shippedFile]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    await screen.findByText('scanline-free.lua', IN_FILENAME);
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect(upload).toHaveProperty('disabled', true);

    await user.upload(fileInput(), new File(['print("farm")\n'], 'farm.lua'));
    await user.click(screen.getByRole('radio', { name: 'Private: requires authentication' }));
    await user.click(screen.getByRole('combobox', { name: 'Save location' }));
    await user.click(await screen.findByRole('option', { name: 'Project Root' }));
    const summary = within(screen.getByRole('region', { name: 'Selected file' }));
    expect(summary.getByText('farm.lua')).toBeTruthy();
    expect(summary.getByText('14 B')).toBeTruthy();
    expect(summary.getByText('Project Root')).toBeTruthy();
    expect(summary.getByText('Private')).toBeTruthy();

    const pending = holdNextUpload();
    await user.click(upload);
    expect(uploadWithProgress).toHaveBeenCalledWith('/api/admin/scripts/upload', expect.any(FormData), {
      onProgress: expect.any(Function),
      signal: expect.any(AbortSignal),
    });
    const form = pending.held.form!;
    expect(form.get('directory')).toBe('project-root');
    expect(form.get('isPublic')).toBe('false');
    expect((form.get('file') as File).name).toBe('farm.lua');

    pending.progress(0.42);
    const busy = screen.getByRole('button', { name: 'Uploading... 42%' });
    expect(busy).toHaveProperty('disabled', true);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe(
      '42',
    );

    const listed = fileRecord({ isPublic: false });
    server.add(listed);
    await pending.succeed({ success: true, created: true, file: listed, version: 1 });
    expect(toast).toHaveBeenCalledWith({
      title: 'File Uploaded',
      description: 'farm.lua is live as version 1.',
    });
    expect(await screen.findByText('farm.lua', IN_FILENAME)).toBeTruthy();
    expect(screen.getByText('No file selected.')).toBeTruthy();
    expect(fileInput().value).toBe('');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(server.calls.filter((c) => c === `GET ${LIST_URL}`)).toHaveLength(2);
  });

  it("shows 'Upload Failed' with the server's message and keeps the selection for another try", async () => {
    const user = userEvent.setup();
    fakeServer([]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    await user.upload(fileInput(), new File(['if x then'], 'broken.lua'));
    const pending = holdNextUpload();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    // The default upload is hosted and public.
    expect(pending.held.form?.get('directory')).toBe('hosted-scripts');
    expect(pending.held.form?.get('isPublic')).toBe('true');

    const message = "Lua syntax error on line 1: 'end' expected near <eof>";
    await pending.fail(new ApiError(400, JSON.stringify({ error: message }), 'Bad Request'));
    expect(toast).toHaveBeenCalledWith({
      title: 'Upload Failed',
      description: message,
      variant: 'destructive',
    });
    expect(
      within(screen.getByRole('region', { name: 'Selected file' })).getByText('broken.lua'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', false);
  });

  it("won't delete a project file: it says why without asking the server", async () => {
    const user = userEvent.setup();
    const server = fakeServer([shippedFile]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    const row = (await screen.findByText('scanline-free.lua', IN_FILENAME)).closest('tr')!;
    const button = within(row).getByRole('button', { name: /Delete/ });
    expect(button.getAttribute('aria-disabled')).toBe('true');

    await user.click(button);
    expect(toast).toHaveBeenCalledWith({
      title: 'Cannot Delete',
      description: 'Project files cannot be deleted from the file manager',
      variant: 'destructive',
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);
  });

  it('deletes a hosted file after the confirmation and drops it from the list', async () => {
    const user = userEvent.setup();
    const server = fakeServer([shippedFile, fileRecord()]);
    renderAt(<FileManagerPage />, '/admin/file-manager');
    const row = (await screen.findByText('farm.lua', IN_FILENAME)).closest('tr')!;

    await user.click(within(row).getByRole('button', { name: 'Delete farm.lua' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(DELETE_WARNING)).toBeTruthy();
    expect(server.calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Delete File' }));
    await waitFor(() => expect(screen.queryByText('farm.lua', IN_FILENAME)).toBeNull());
    expect(server.calls).toContain('DELETE /api/admin/hosted-scripts/5');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'File Deleted' }));
    expect(screen.getByText('scanline-free.lua', IN_FILENAME)).toBeTruthy();
  });

  it("shows 'Delete Failed' with the server's message", async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST_URL]: () => json([fileRecord()]),
      'DELETE /api/admin/hosted-scripts/5': () => json({ error: 'File not found' }, 404),
    });
    renderAt(<FileManagerPage />, '/admin/file-manager');
    await user.click(await screen.findByRole('button', { name: 'Delete farm.lua' }));
    await user.click(await screen.findByRole('button', { name: 'Delete File' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Delete Failed',
        description: 'File not found',
        variant: 'destructive',
      }),
    );
  });
});
