import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../../common/public-defaults.ts';
import type {
  ScriptsPageButton,
  ScriptsPageConfig,
  ScriptsPageSection,
} from '../../../../common/scripts-page.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { NEW_BUTTON_DEFAULTS, NEW_SECTION_DEFAULTS } from './scripts-page-draft.ts';
import ScriptsPageEditorPage from './scripts-page-editor.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));

const CONFIG_URL = '/api/admin/scripts-page-config';
const PUBLIC_CONFIG_KEY = ['/api/public/scripts-page-config'];

function button(id: string, label: string, order: number, visible = true): ScriptsPageButton {
  return { id, label, file: 'scanline-free.lua', downloadType: 'script', variant: 'default', visible, order };
}

function section(
  id: string,
  title: string,
  order: number,
  extra: Partial<ScriptsPageSection> = {},
): ScriptsPageSection {
  return {
    id,
    title,
    description: `${title} description`,
    icon: 'code',
    iconColor: 'from-green-500 to-emerald-600',
    order,
    visible: true,
    features: ['zap:Fast finds'],
    buttons: [],
    ...extra,
  };
}

const SAVED: ScriptsPageConfig = {
  key: 'default',
  headerTitle: 'Scanline Scripts',
  headerSubtitle: 'Download the scanner.',
  securityBadge: 'Verified & Secure',
  showBackButton: 1,
  sections: [
    section('premium', 'Premium Scanner', 1),
    section('free', 'Free Scanner', 0, {
      buttons: [button('copy', 'Copy Loader', 0), button('old', 'Old Download', 1, false)],
    }),
    section('secret', 'Secret Section', 2, { visible: false }),
  ],
};

/** A server that keeps what is PUT, restores the default on reset, and records each write. */
function fakeServer(initial: ScriptsPageConfig = SAVED) {
  let config = structuredClone(initial);
  const puts: ScriptsPageConfig[] = [];
  const resets: number[] = [];
  mockFetch({
    [CONFIG_URL]: () => json({ config }),
    [`PUT ${CONFIG_URL}`]: (init) => {
      config = JSON.parse(String(init?.body)) as ScriptsPageConfig;
      puts.push(config);
      return json({ config });
    },
    [`POST ${CONFIG_URL}/reset`]: () => {
      resets.push(Date.now());
      config = structuredClone(DEFAULT_SCRIPTS_PAGE_CONFIG);
      return json({ config });
    },
    // The files these tests' buttons name (a new button's 'script.lua' too), hosted and open to all:
    // the file check (scripts-page-file-check.test.tsx) has nothing to say here.
    '/api/admin/all-scripts/list': () =>
      json(
        ['scanline-free.lua', 'script.lua'].map((filename) => ({
          filename,
          isPublic: true,
          accessType: 'FREE',
        })),
      ),
  });
  return { puts, resets };
}

/** The section cards on the Sections tab, top to bottom, by their accessible names. */
function sectionNames(): string[] {
  return screen
    .getAllByRole('group', { name: /^Section / })
    .map((card) => card.getAttribute('aria-label') ?? '');
}

function sectionCard(title: string): HTMLElement {
  return screen.getByRole('group', { name: `Section ${title}` });
}

function saveButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement;
}

async function openSectionsTab(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('tab', { name: 'Sections' }));
}

/** Renders the editor page, with a user to drive it, against whatever fetch mock the test set up. */
function renderPage() {
  const user = userEvent.setup();
  const { queryClient, router } = renderAt(<ScriptsPageEditorPage />, '/admin/scripts-page-editor');
  return { user, queryClient, router };
}

/** Renders the editor page against a fake server holding `initial`. */
function renderEditor(initial?: ScriptsPageConfig) {
  const server = fakeServer(initial);
  return { ...server, ...renderPage() };
}

/** renderEditor, then the Sections tab opened once the config has loaded. */
async function renderSectionsTab(initial?: ScriptsPageConfig) {
  const editor = renderEditor(initial);
  await openSectionsTab(editor.user);
  return editor;
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ScriptsPageEditorPage', () => {
  it('loads the configuration and lists every section in order, hidden ones marked', async () => {
    const { user } = renderEditor();
    expect(screen.getByRole('heading', { name: 'Scripts Page Editor' })).toBeTruthy();
    expect(((await screen.findByLabelText('Header Title')) as HTMLInputElement).value).toBe(
      'Scanline Scripts',
    );
    expect(screen.queryByText('Unsaved Changes')).toBeNull();
    expect(saveButton().disabled).toBe(true);

    await openSectionsTab(user);
    expect(sectionNames()).toEqual([
      'Section Free Scanner',
      'Section Premium Scanner',
      'Section Secret Section',
    ]);
    expect(within(sectionCard('Secret Section')).getByText('Hidden')).toBeTruthy();
    expect(within(sectionCard('Free Scanner')).getByText('Position 1 · 2 buttons')).toBeTruthy();
  });

  it('says why the configuration failed to load', async () => {
    mockFetch({ [CONFIG_URL]: () => json({ error: 'Database unavailable' }, 503) });
    renderPage();
    expect(await screen.findByText('Failed to load configuration: Database unavailable')).toBeTruthy();
  });

  it('adds a section with the default content at the end, expanded, and saves it', async () => {
    const { user, puts } = await renderSectionsTab();
    await user.click(screen.getByRole('button', { name: 'Add Section' }));

    expect(sectionNames().at(-1)).toBe('Section New Section');
    const card = sectionCard('New Section');
    expect(
      within(card)
        .getByRole('button', { name: 'Collapse section New Section' })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    expect((within(card).getByLabelText('Title') as HTMLInputElement).value).toBe('New Section');
    expect((within(card).getByLabelText('Description') as HTMLTextAreaElement).value).toBe(
      'Section description',
    );
    expect(within(card).getByLabelText('Icon').textContent).toContain('gift');
    expect(within(card).getByLabelText('Icon Colour').textContent).toContain('from-blue-500 to-cyan-600');
    expect(within(card).getByRole('switch', { name: 'Visible' }).getAttribute('aria-checked')).toBe('true');
    expect(within(card).getByText('No features yet.')).toBeTruthy();
    expect(within(card).getByText('No buttons yet.')).toBeTruthy();
    expect(screen.getByText('Unsaved Changes')).toBeTruthy();

    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.sections.at(-1)).toEqual({
      ...NEW_SECTION_DEFAULTS,
      id: 'section-1',
      order: 3,
      features: [],
      buttons: [],
    });
  });

  it('adds a button with the default content after the section’s buttons', async () => {
    const { user, puts } = await renderSectionsTab();
    await user.click(screen.getByRole('button', { name: 'Expand section Free Scanner' }));
    await user.click(within(sectionCard('Free Scanner')).getByRole('button', { name: 'Add Button' }));

    const row = screen.getByRole('group', { name: 'Button New Button' });
    expect((within(row).getByLabelText('Label') as HTMLInputElement).value).toBe('New Button');
    expect((within(row).getByLabelText('File') as HTMLInputElement).value).toBe('script.lua');
    expect(within(row).getByLabelText('Action').textContent).toContain('Download file');
    expect(within(row).getByLabelText('Style').textContent).toContain('default');
    expect(within(row).getByRole('switch', { name: 'Visible' }).getAttribute('aria-checked')).toBe('true');

    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    const free = puts[0]?.sections.find((s) => s.id === 'free');
    // The draft tests pin the default values; here they only have to reach the server.
    expect(free?.buttons.at(-1)).toEqual({ ...NEW_BUTTON_DEFAULTS, id: 'button-1', order: 2 });
  });

  it('moves sections and buttons by swapping neighbours, renumbering from 0', async () => {
    const { user, puts } = await renderSectionsTab();
    const moveUp = (title: string) =>
      within(sectionCard(title)).getByRole('button', {
        name: `Move section ${title} up`,
      }) as HTMLButtonElement;
    const moveDown = (title: string) =>
      within(sectionCard(title)).getByRole('button', {
        name: `Move section ${title} down`,
      }) as HTMLButtonElement;

    expect(moveUp('Free Scanner').disabled).toBe(true);
    expect(moveDown('Secret Section').disabled).toBe(true);
    await user.click(moveUp('Secret Section'));
    expect(sectionNames()).toEqual([
      'Section Free Scanner',
      'Section Secret Section',
      'Section Premium Scanner',
    ]);
    expect(moveDown('Premium Scanner').disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Expand section Free Scanner' }));
    await user.click(screen.getByRole('button', { name: 'Move button Old Download up' }));
    const buttonRows = within(sectionCard('Free Scanner')).getAllByRole('group', { name: /^Button / });
    expect(buttonRows.map((row) => row.getAttribute('aria-label'))).toEqual([
      'Button Old Download',
      'Button Copy Loader',
    ]);

    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    const orders = Object.fromEntries(puts[0]?.sections.map((s) => [s.id, s.order]) ?? []);
    expect(orders).toEqual({ free: 0, secret: 1, premium: 2 });
    const free = puts[0]?.sections.find((s) => s.id === 'free');
    expect(free?.buttons.map((b) => [b.id, b.order])).toEqual([
      ['old', 0],
      ['copy', 1],
    ]);
  });

  it('deletes a section or a button only after confirmation', async () => {
    const { user, puts } = await renderSectionsTab();

    await user.click(screen.getByRole('button', { name: 'Delete section Free Scanner' }));
    expect(await screen.findByText('Delete this section?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(sectionNames()).toHaveLength(3);
    expect(screen.queryByText('Unsaved Changes')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Expand section Free Scanner' }));
    await user.click(screen.getByRole('button', { name: 'Delete button Copy Loader' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Button' }));
    expect(screen.queryByRole('group', { name: 'Button Copy Loader' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete section Premium Scanner' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Section' }));
    expect(sectionNames()).toEqual(['Section Free Scanner', 'Section Secret Section']);
    expect(screen.getByText('Unsaved Changes')).toBeTruthy();

    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.sections.map((s) => [s.id, s.order])).toEqual([
      ['free', 0],
      ['secret', 1],
    ]);
    expect(puts[0]?.sections[0]?.buttons.map((b) => [b.id, b.order])).toEqual([['old', 0]]);
  });

  it('saves the whole config only once something changed, and the public page asks again', async () => {
    const { user, puts, queryClient } = renderEditor();
    queryClient.setQueryData(PUBLIC_CONFIG_KEY, { config: SAVED });
    const title = (await screen.findByLabelText('Header Title')) as HTMLInputElement;
    expect(saveButton().disabled).toBe(true);

    await user.clear(title);
    await user.type(title, 'All Scripts');
    await user.click(screen.getByRole('switch', { name: 'Show Back to Home button' }));
    expect(screen.getByText('Unsaved Changes')).toBeTruthy();
    expect(saveButton().disabled).toBe(false);

    await user.click(saveButton());
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Configuration Saved!' })),
    );
    expect(puts).toEqual([{ ...SAVED, headerTitle: 'All Scripts', showBackButton: 0 }]);
    await waitFor(() => expect(screen.queryByText('Unsaved Changes')).toBeNull());
    expect(saveButton().disabled).toBe(true);
    expect(queryClient.getQueryState(PUBLIC_CONFIG_KEY)?.isInvalidated).toBe(true);
  });

  it('asks before leaving with unsaved changes (Stay keeps them), and leaves freely once saved', async () => {
    const { user, router } = renderEditor();
    const title = (await screen.findByLabelText('Header Title')) as HTMLInputElement;
    await user.type(title, '!');

    await act(() => router.navigate('/admin/dashboard'));
    const question = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(screen.getByTestId('current-path').textContent).toBe('/admin/scripts-page-editor');
    expect((screen.getByLabelText('Header Title') as HTMLInputElement).value).toBe('Scanline Scripts!');

    await user.click(saveButton());
    await waitFor(() => expect(screen.queryByText('Unsaved Changes')).toBeNull());
    await act(() => router.navigate('/admin/dashboard'));
    expect(screen.getByTestId('current-path').textContent).toBe('/admin/dashboard');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("says 'Save Failed' with the server's message when the server refuses", async () => {
    mockFetch({
      [CONFIG_URL]: () => json({ config: SAVED }),
      [`PUT ${CONFIG_URL}`]: () => json({ error: 'Invalid scripts page configuration' }, 400),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Security Badge'), '!');
    await user.click(saveButton());
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Save Failed',
        description: 'Invalid scripts page configuration',
        variant: 'destructive',
      }),
    );
    expect(screen.getByText('Unsaved Changes')).toBeTruthy();
  });

  it('names the first problem instead of sending a config the server would refuse', async () => {
    const full = {
      ...SAVED,
      sections: Array.from({ length: 50 }, (_, i) => section(`s${i}`, `Section ${i}`, i)),
    };
    const { user, puts } = await renderSectionsTab(full);
    await user.click(screen.getByRole('button', { name: 'Add Section' }));
    await user.click(saveButton());
    expect(toast).toHaveBeenCalledWith({
      title: 'Save Failed',
      description: expect.stringMatching(/^Sections: /),
      variant: 'destructive',
    });
    expect(puts).toEqual([]);
  });

  it('resets to the default content after an irreversible-action confirmation', async () => {
    const { user, resets } = renderEditor();
    await user.type(await screen.findByLabelText('Header Title'), ' (draft)');

    await user.click(screen.getByRole('button', { name: 'Reset to Default' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Reset Page' }));

    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Configuration Reset' })),
    );
    expect(resets).toHaveLength(1);
    await waitFor(() =>
      expect((screen.getByLabelText('Header Title') as HTMLInputElement).value).toBe(
        DEFAULT_SCRIPTS_PAGE_CONFIG.headerTitle,
      ),
    );
    expect(screen.queryByText('Unsaved Changes')).toBeNull();
  });

  it('previews only the visible sections and buttons, as the public page shows them', async () => {
    const { user } = renderEditor();
    await user.click(await screen.findByRole('tab', { name: 'Preview' }));
    const preview = screen.getByTestId('scripts-page-preview');

    expect(within(preview).getByRole('heading', { level: 1, name: 'Scanline Scripts' })).toBeTruthy();
    const headings = within(preview)
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent);
    expect(headings).toEqual(['Free Scanner', 'Premium Scanner']);
    expect(within(preview).getByRole('button', { name: 'Copy Loader' })).toBeTruthy();
    expect(within(preview).queryByText('Old Download')).toBeNull();
    expect(within(preview).queryByText('Secret Section')).toBeNull();
  });
});
