import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';
import { renderAt, resetBetweenTests } from '../shared/test-utils.tsx';
import ScriptsPageEditorPage from './scripts-page-editor.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));

resetBetweenTests();

const CONFIG_URL = '/api/admin/scripts-page-config';
const MISSING = 'tools.lua is not in the File Manager: visitors who press it get "Download Failed".';

/** One section whose one download button names `file`. */
function configWith(file: string): ScriptsPageConfig {
  return {
    key: 'default',
    headerTitle: 'Scanline Scripts',
    headerSubtitle: '',
    securityBadge: '',
    showBackButton: 0,
    sections: [
      {
        id: 'tools',
        title: 'Tools',
        description: 'Extra tools',
        icon: 'code',
        iconColor: 'from-green-500 to-emerald-600',
        order: 0,
        visible: true,
        features: [],
        buttons: [
          {
            id: 'get',
            label: 'Get Tools',
            file,
            downloadType: 'file',
            variant: 'default',
            visible: true,
            order: 0,
          },
        ],
      },
    ],
  };
}

/** The editor against a server holding `config`, whose File Manager lists only scanline-free.lua. */
function renderEditor(config: ScriptsPageConfig) {
  const puts: ScriptsPageConfig[] = [];
  let stored = config;
  mockFetch({
    [CONFIG_URL]: () => json({ config: stored }),
    [`PUT ${CONFIG_URL}`]: (init) => {
      stored = JSON.parse(String(init?.body)) as ScriptsPageConfig;
      puts.push(stored);
      return json({ config: stored });
    },
    '/api/admin/all-scripts/list': () =>
      json([{ filename: 'scanline-free.lua', isPublic: true, accessType: 'FREE' }]),
  });
  renderAt(<ScriptsPageEditorPage />, '/admin/scripts-page-editor');
  return { user: userEvent.setup(), puts };
}

describe('Scripts Page Editor: buttons checked against the hosted files', () => {
  it('says under the button, on its collapsed section and in the preview that its file is missing', async () => {
    const { user } = renderEditor(configWith('tools.lua'));
    await user.click(await screen.findByRole('tab', { name: 'Sections' }));
    const card = screen.getByRole('group', { name: 'Section Tools' });
    expect(await within(card).findByText('1 button fails')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Expand section Tools' }));
    expect(within(card).getByText(MISSING)).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = screen.getByTestId('scripts-page-preview');
    const marked = within(preview).getByRole('button', { name: 'Get Tools' });
    expect(document.getElementById(marked.getAttribute('aria-describedby') ?? '')?.textContent).toBe(MISSING);
  });

  it('names the failing button before saving: Cancel sends nothing, Save Anyway saves', async () => {
    const { user, puts } = renderEditor(configWith('scanline-free.lua'));
    await user.click(await screen.findByRole('tab', { name: 'Sections' }));
    const card = screen.getByRole('group', { name: 'Section Tools' });
    await user.click(within(card).getByRole('button', { name: 'Expand section Tools' }));
    const file = within(card).getByLabelText('File');
    await user.clear(file);
    await user.type(file, 'tools.lua');

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const question = await screen.findByRole('alertdialog', { name: 'Save with a button that fails?' });
    expect(
      within(question)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`"Get Tools" in Tools: ${MISSING}`]);
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(puts).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Save Anyway' }),
    );
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.sections[0]?.buttons[0]?.file).toBe('tools.lua');
  });

  it('saves at once when every button works', async () => {
    const { user, puts } = renderEditor(configWith('scanline-free.lua'));
    const title = await screen.findByLabelText('Header Title');
    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
