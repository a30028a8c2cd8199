import { EditorView } from '@codemirror/view';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { toast } from '@/lib/toast.ts';
import { json } from '@/test/render.tsx';
import { formatDate } from '../../../../common/format.ts';
import { buildLoaderSnippet } from '../../../../common/loader-snippet.ts';
import { describeLuaSyntaxError, findLuaSyntaxError } from '../../../../common/lua-syntax.ts';
import {
  countLines,
  type SaveScriptRequest,
  type Script,
  type ScriptVersion,
  utf8ByteLength,
} from '../../../../common/scripts.ts';
import { renderAt } from '../shared/test-utils.tsx';
import ScriptManagementPage from './script-management.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/clipboard.ts', () => ({ copyToClipboard: vi.fn(async () => true) }));

const BASE = '/api/admin/scripts';
const UNIVERSAL_V1 = '-- universal\nprint("v1")\n';
const UNIVERSAL_V2 = '-- universal\nprint("v2")\n';

interface StoredScript {
  script: Script;
  versions: ScriptVersion[];
}

function storedScript(name: string, contents: string[], overrides: Partial<Script> = {}): StoredScript {
  const versions = contents
    .map((content, i) => ({
      id: i + 1,
      version: i + 1,
      content,
      notes: i === 0 ? 'First cut' : null,
      createdAt: `2026-11-2${i}T10:00:00.000Z`,
    }))
    .reverse();
  const content = contents.at(-1) ?? '';
  return {
    versions,
    script: {
      name,
      accessType: 'FREE',
      location: 'hosted-scripts',
      isPublic: true,
      size: utf8ByteLength(content),
      lines: countLines(content),
      version: contents.length,
      lastModified: versions[0]?.createdAt ?? '2026-11-20T10:00:00.000Z',
      content,
      ...overrides,
    },
  };
}

/** A script store behind fetch, refusing Lua that does not parse as the real server does. */
function fakeServer(initial: StoredScript[]) {
  const store = new Map(initial.map((s) => [s.script.name, s]));
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const summaries = () => [...store.values()].map(({ script: { content: _, ...summary } }) => summary);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = decodeURIComponent(String(input));
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    // The editor's live check answers as the server's does, apart from the screen's own calls.
    if (method === 'POST' && url === `${BASE}/check-syntax`) {
      const syntaxError = findLuaSyntaxError(body.content);
      return json(
        syntaxError ? { ok: false, error: describeLuaSyntaxError(syntaxError), syntaxError } : { ok: true },
      );
    }
    calls.push({ method, url, body });
    if (method === 'GET' && url === BASE) return json({ scripts: summaries() });
    if (method === 'POST' && url === `${BASE}/save`) {
      const request = body as SaveScriptRequest;
      const syntaxError = findLuaSyntaxError(request.content);
      if (syntaxError) return json({ error: describeLuaSyntaxError(syntaxError), syntaxError }, 400);
      const existing = store.get(request.filename);
      const number = (existing?.script.version ?? 0) + 1;
      const version = {
        id: 100 + number,
        version: number,
        content: request.content,
        notes: request.notes ?? null,
        createdAt: '2026-11-25T12:00:00.000Z',
      };
      const next = storedScript(request.filename, [request.content]);
      next.script = { ...(existing?.script ?? next.script), content: request.content, version: number };
      next.versions = [version, ...(existing?.versions ?? [])];
      store.set(request.filename, next);
      const { content: _, ...summary } = next.script;
      return json({ success: true, created: !existing, script: summary, version }, existing ? 200 : 201);
    }
    const access = url.match(/^\/api\/admin\/scripts\/(.+)\/access-type$/);
    if (method === 'PUT' && access?.[1]) {
      const entry = store.get(access[1])!;
      entry.script = { ...entry.script, accessType: body.accessType };
      const { content: _, ...summary } = entry.script;
      return json({ success: true, script: summary });
    }
    const versions = url.match(/^\/api\/admin\/scripts\/(.+)\/versions\?limit=(\d+)$/);
    if (method === 'GET' && versions?.[1]) {
      const all = store.get(versions[1])?.versions ?? [];
      return json({ versions: all.slice(0, Number(versions[2])) });
    }
    const one = url.match(/^\/api\/admin\/scripts\/(.+)$/);
    if (one?.[1] && store.has(one[1])) {
      if (method === 'GET') return json({ script: store.get(one[1])?.script });
      if (method === 'DELETE') {
        store.delete(one[1]);
        return json({ success: true, filename: one[1] });
      }
    }
    return json({ error: 'Script not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, store };
}

const universal = () =>
  storedScript('scanline-universal.lua', [UNIVERSAL_V1, UNIVERSAL_V2], { location: 'project' });
const farm = () => storedScript('auto-farm.lua', ['print("farm")\n']);

function renderPage() {
  return renderAt(<ScriptManagementPage />, '/admin/script-management');
}

/** The CodeMirror view behind the script editor. */
async function scriptEditor(): Promise<EditorView> {
  const content = await screen.findByRole('textbox', { name: 'Script editor' });
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error('no editor view');
  return view;
}

async function editorShows(text: string) {
  await waitFor(async () => expect((await scriptEditor()).state.doc.toString()).toBe(text));
}

/** Types as the admin would: one change at the end of the text. */
async function appendToEditor(text: string) {
  const view = await scriptEditor();
  act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: text } }));
}

function saveState() {
  return screen.getByTestId('save-state').textContent;
}

beforeAll(() => {
  // CodeMirror measures text; jsdom does not.
  const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects ??= emptyRects;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
beforeEach(() => {
  vi.mocked(toast).mockClear();
  vi.mocked(copyToClipboard).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ScriptManagementPage', () => {
  it('opens the universal script with its size, lines, version and text', async () => {
    fakeServer([farm(), universal()]);
    renderPage();
    const picker = await screen.findByRole('combobox', { name: 'Script' });
    await waitFor(() => expect(picker.textContent).toBe('scanline-universal.lua'));
    expect(screen.getByText(`${utf8ByteLength(UNIVERSAL_V2)} B`)).toBeTruthy();
    expect(screen.getByText('3', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByText('Version 2', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByText('Project')).toBeTruthy();
    await editorShows(UNIVERSAL_V2);
    expect(saveState()).toBe('Saved');
    expect(screen.getByText(/live deployment/)).toBeTruthy();
  });

  it("says 'Modified' once the text differs from what is stored, and 'Saved' when it matches again", async () => {
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('print("more")\n');
    expect(saveState()).toBe('Modified');
    const view = await scriptEditor();
    act(() =>
      view.dispatch({ changes: { from: UNIVERSAL_V2.length, to: view.state.doc.length, insert: '' } }),
    );
    expect(saveState()).toBe('Saved');
  });

  it('saves and deploys the text with its notes and base version, then lists the new version', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal(), farm()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('print("v3")\n');
    const notes = screen.getByLabelText('Version Notes (optional)');
    await user.type(notes, 'Faster hops');
    await user.click(screen.getByRole('button', { name: 'Save & Deploy' }));

    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Script Updated',
        description: 'Saved and deployed to all users instantly (version 3).',
      }),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      filename: 'scanline-universal.lua',
      content: `${UNIVERSAL_V2}print("v3")\n`,
      notes: 'Faster hops',
      baseVersion: 2,
    });
    const newest = await screen.findByRole('listitem', { name: 'Version 3' });
    expect(within(newest).getByText('Faster hops')).toBeTruthy();
    expect(within(newest).getByText('Current')).toBeTruthy();
    expect(saveState()).toBe('Saved');
    expect(notes).toHaveProperty('value', '');
  });

  it('refuses Lua that does not parse: Deploy Failed, the line shown above the editor, no new version', async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('local x = = 1\n');
    await user.click(screen.getByRole('button', { name: 'Save & Deploy' }));

    const message = describeLuaSyntaxError(findLuaSyntaxError(`${UNIVERSAL_V2}local x = = 1\n`)!);
    expect(message).toMatch(/^Lua syntax error on line 3: /);
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Deploy Failed',
        description: message,
        variant: 'destructive',
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain(message);
    expect(saveState()).toBe('Modified');
    expect(screen.queryByRole('listitem', { name: 'Version 3' })).toBeNull();

    // Fixing the text clears the server's verdict.
    await appendToEditor('-- fixing');
    await waitFor(() => expect(screen.queryByText(message)).toBeNull());
  });

  it("shows the server's reason when a save is refused for another reason", async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    vi.mocked(fetch).mockImplementationOnce(async () =>
      json({ error: 'This script was saved by someone else meanwhile' }, 409),
    );
    await user.click(screen.getByRole('button', { name: 'Save & Deploy' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Save Failed',
        description: 'This script was saved by someone else meanwhile',
        variant: 'destructive',
      }),
    );
  });

  it('keeps Save & Deploy disabled while the text is blank', async () => {
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    const view = await scriptEditor();
    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '  \n' } }));
    expect(screen.getByRole('button', { name: 'Save & Deploy' })).toHaveProperty('disabled', true);
  });

  it('saves with Ctrl-S in the editor, and asks for content when the text is blank', async () => {
    const { calls } = fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    const view = await scriptEditor();
    const pressCtrlS = () =>
      act(() => {
        view.contentDOM.dispatchEvent(
          new KeyboardEvent('keydown', { key: 's', code: 'KeyS', ctrlKey: true, bubbles: true }),
        );
      });

    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: ' \n' } }));
    pressCtrlS();
    expect(toast).toHaveBeenCalledWith({
      title: 'Save Failed',
      description: 'Please select a script and enter content.',
      variant: 'destructive',
    });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: 'print(3)\n' } }));
    pressCtrlS();
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Script Updated' })),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ content: 'print(3)\n' });
  });

  it('disables delete for the last script and for shipped scripts, saying why', async () => {
    fakeServer([farm()]);
    const { unmount } = renderPage();
    await screen.findByText('Cannot delete the last script');
    expect(screen.getByRole('button', { name: 'Delete Script' })).toHaveProperty('disabled', true);
    unmount();

    fakeServer([universal(), farm()]);
    renderPage();
    await screen.findByText('Project scripts ship with the app and cannot be deleted');
    expect(screen.getByRole('button', { name: 'Delete Script' })).toHaveProperty('disabled', true);
  });

  it('deletes a hosted script after confirmation and goes back to the universal script', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal(), farm()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await user.click(screen.getByRole('combobox', { name: 'Script' }));
    await user.click(await screen.findByRole('option', { name: 'auto-farm.lua' }));
    await editorShows('print("farm")\n');

    await user.click(screen.getByRole('button', { name: 'Delete Script' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('cannot be undone');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Script' }));

    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Script Deleted' })),
    );
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `${BASE}/auto-farm.lua`)).toBe(true);
    await editorShows(UNIVERSAL_V2);
    expect(screen.getByRole('combobox', { name: 'Script' }).textContent).toBe('scanline-universal.lua');
  });

  it('asks before switching scripts with unsaved edits, and keeps them on cancel', async () => {
    const user = userEvent.setup();
    fakeServer([universal(), farm()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('-- unsaved');
    await user.click(screen.getByRole('combobox', { name: 'Script' }));
    await user.click(await screen.findByRole('option', { name: 'auto-farm.lua' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Editing' }));
    await editorShows(`${UNIVERSAL_V2}-- unsaved`);
    expect(saveState()).toBe('Modified');

    await user.click(screen.getByRole('combobox', { name: 'Script' }));
    await user.click(await screen.findByRole('option', { name: 'auto-farm.lua' }));
    await user.click(await screen.findByRole('button', { name: 'Discard Changes' }));
    await editorShows('print("farm")\n');
    expect(saveState()).toBe('Saved');
  });

  it('asks before leaving the screen with unsaved edits: Stay keeps them, Leave goes; a save ends it', async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    // The screen on its own route, so leaving it unmounts it as in the app (/admin/dashboard is a stub).
    const { router } = renderAt(
      <ScriptManagementPage />,
      '/admin/script-management',
      '/admin/script-management',
    );
    const path = () => screen.getByTestId('current-path').textContent;
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('-- unsaved');

    await act(() => router.navigate('/admin/dashboard'));
    const question = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(path()).toBe('/admin/script-management');
    await editorShows(`${UNIVERSAL_V2}-- unsaved`);

    await act(() => router.navigate('/admin/dashboard'));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await screen.findByText('Dashboard stub');

    await act(() => router.navigate('/admin/script-management'));
    await editorShows(UNIVERSAL_V2);
    await appendToEditor('-- deployed');
    await user.click(screen.getByRole('button', { name: 'Save & Deploy' }));
    await waitFor(() => expect(saveState()).toBe('Saved'));
    await act(() => router.navigate('/admin/dashboard'));
    expect(path()).toBe('/admin/dashboard');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("says 'No version history available' for a script without versions", async () => {
    const empty = universal();
    empty.versions = [];
    fakeServer([empty]);
    renderPage();
    expect(await screen.findByText('No version history available')).toBeTruthy();
  });

  it('loads an old version into the editor and says which one', async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await user.click(await screen.findByRole('button', { name: 'Load version 1' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'Version Loaded',
      description: `Version 1 from ${formatDate('2026-11-20T10:00:00.000Z')}`,
    });
    await editorShows(UNIVERSAL_V1);
    expect(saveState()).toBe('Modified');
  });

  it('compares a version with the editor in a diff', async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await user.click(await screen.findByRole('button', { name: 'Compare version 1 with the editor' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Version 1', { selector: 'div' })).toBeTruthy();
    expect(within(dialog).getByText('Editor', { selector: 'div' })).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Version 1' }).textContent).toContain('print("v1")');
    expect(within(dialog).getByRole('textbox', { name: 'Editor' }).textContent).toContain('print("v2")');
  });

  it("refuses to create a script without a name: 'Invalid Input'", async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await user.click(screen.getByRole('button', { name: 'Create Script' }));
    await user.type(await screen.findByLabelText('Script Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'Invalid Input',
      description: 'Please enter a script name.',
      variant: 'destructive',
    });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('names a bad file name inline instead of sending it', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal()]);
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Create Script' }));
    await user.type(await screen.findByLabelText('Script Name'), 'tools/farm');
    expect(screen.getByRole('alert').textContent).toMatch(/^The name must not contain path separators/);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('creates a script from the template, adding .lua, and opens it', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal()]);
    renderPage();
    await editorShows(UNIVERSAL_V2);
    await user.click(screen.getByRole('button', { name: 'Create Script' }));
    await user.type(await screen.findByLabelText('Script Name'), ' pet-finder ');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Script Created' })),
    );
    const post = calls.find((c) => c.method === 'POST')?.body as SaveScriptRequest;
    expect(post.filename).toBe('pet-finder.lua');
    expect(post.content).toMatch(/^-- pet-finder\.lua\n-- Created \d{4}-\d{2}-\d{2} with Scanline\n$/);
    await editorShows(post.content);
    expect(screen.getByRole('combobox', { name: 'Script' }).textContent).toBe('pet-finder.lua');
  });

  it('changes the access type and explains it', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([universal()]);
    renderPage();
    expect(await screen.findByText('FREE: available to all users, keyless.')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Access Type' }));
    await user.click(await screen.findByRole('option', { name: 'PREMIUM' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Access Type Updated' })),
    );
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      url: `${BASE}/scanline-universal.lua/access-type`,
      body: { accessType: 'PREMIUM' },
    });
    expect(
      await screen.findByText('PREMIUM: requires a valid licence key and hardware binding.'),
    ).toBeTruthy();
  });

  it('copies the free and the premium loader strings', async () => {
    const user = userEvent.setup();
    fakeServer([universal()]);
    renderPage();
    const origin = window.location.origin;
    const free = buildLoaderSnippet(origin, 'scanline-universal.lua');
    const premium = buildLoaderSnippet(origin, 'scanline-universal.lua', 'YOUR_SCRIPT_KEY');
    expect(await screen.findByText(free)).toBeTruthy();
    expect(screen.getByText(premium)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Copy free loader' }));
    expect(copyToClipboard).toHaveBeenCalledWith(free, expect.any(String), 'Copy Failed');
    await user.click(screen.getByRole('button', { name: 'Copy premium loader' }));
    expect(copyToClipboard).toHaveBeenCalledWith(premium, expect.any(String), 'Copy Failed');
  });

  it('says the screen failed to load when the script list cannot be fetched', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: 'boom' }, 500)),
    );
    renderPage();
    expect(
      await screen.findByText('Failed to load script management. Please try refreshing the page.'),
    ).toBeTruthy();
  });
});
