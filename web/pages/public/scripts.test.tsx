import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockClipboard, mockFetch, renderWithProviders } from '@/test/render.tsx';
import type { ScriptsPageConfig, ScriptsPageSection } from '../../../common/scripts-page.ts';
import { ScriptsPage } from './scripts.tsx';

const CONFIG_URL = '/api/public/scripts-page-config';

function section(id: string, overrides: Partial<ScriptsPageSection> = {}): ScriptsPageSection {
  return {
    id,
    title: `Section ${id}`,
    description: `About ${id}`,
    icon: 'gift',
    iconColor: 'from-blue-500 to-cyan-600',
    order: 0,
    visible: true,
    features: [],
    buttons: [],
    ...overrides,
  };
}

const CONFIG: ScriptsPageConfig = {
  key: 'default',
  headerTitle: 'Test Scripts',
  headerSubtitle: 'Pick one',
  securityBadge: '',
  showBackButton: 0,
  sections: [
    section('third', { order: 2 }),
    section('hidden', { order: 0, visible: false }),
    section('first', {
      order: 0,
      badge: { text: 'FREE', variant: 'secondary' },
      accessInfo: { title: 'Who can use it', description: 'Everyone', variant: 'success' },
      features: ['zap:Fast finds', 'Plain feature'],
      buttons: [
        {
          id: 'b2',
          label: 'Download .lua',
          file: 'free.lua',
          downloadType: 'file',
          variant: 'outline',
          visible: true,
          order: 1,
        },
        {
          id: 'b0',
          label: 'Hidden Button',
          file: 'x.lua',
          downloadType: 'file',
          variant: 'default',
          visible: false,
          order: 0,
        },
        {
          id: 'b1',
          label: 'Copy Loader',
          file: 'my script.lua',
          downloadType: 'script',
          variant: 'default',
          visible: true,
          order: 0,
        },
      ],
    }),
    section('second', { order: 1 }),
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ScriptsPage', () => {
  it('shows the visible sections and buttons in order, with header, badge, access info and features', async () => {
    mockFetch({ [CONFIG_URL]: () => json({ config: CONFIG }) });
    renderWithProviders(<ScriptsPage />, '/scripts');
    expect(await screen.findByRole('heading', { name: 'Test Scripts', level: 1 })).toBeTruthy();
    expect(screen.getByText('Pick one')).toBeTruthy();
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual(['Section first', 'Section second', 'Section third', 'How to Use']);
    expect(screen.queryByText('Section hidden')).toBeNull();

    const first = screen.getByRole('region', { name: 'Section first' });
    expect(
      within(first)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Copy Loader', 'Download .lua']);
    expect(within(first).getByText('FREE')).toBeTruthy();
    expect(within(first).getByText('Who can use it')).toBeTruthy();
    expect(within(first).getByText('Fast finds')).toBeTruthy();
    expect(within(first).getByText('Plain feature')).toBeTruthy();

    // showBackButton 0 and an empty security badge show neither.
    expect(screen.queryByRole('link', { name: /Back to Home/ })).toBeNull();
    expect(screen.queryByText('Verified & Secure')).toBeNull();
  });

  it('shows Back to Home and the security badge when configured', async () => {
    mockFetch({
      [CONFIG_URL]: () => json({ config: { ...CONFIG, showBackButton: 1, securityBadge: 'Audited' } }),
    });
    renderWithProviders(<ScriptsPage />, '/scripts');
    expect((await screen.findByRole('link', { name: /Back to Home/ })).getAttribute('href')).toBe('/');
    expect(screen.getByText('Audited')).toBeTruthy();
  });

  it('copies a loader snippet for the current origin from a script button', async () => {
    mockFetch({ [CONFIG_URL]: () => json({ config: CONFIG }) });
    const writeText = mockClipboard();
    renderWithProviders(<ScriptsPage />, '/scripts');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy Loader' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        `loadstring(game:HttpGet("${window.location.origin}/api/script/loader?script=my%20script.lua"))()`,
      ),
    );
  });

  it('downloads a file button as a blob and says so', async () => {
    mockFetch({
      [CONFIG_URL]: () => json({ config: CONFIG }),
      '/api/hosted-scripts/free.lua': () => new Response('print("hi")', { status: 200 }),
    });
    // jsdom has no object URLs: lend it a pair for this test.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:test');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const downloads: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ name: this.download, href: this.href });
    });
    try {
      renderWithProviders(<ScriptsPage />, '/scripts');
      fireEvent.click(await screen.findByRole('button', { name: 'Download .lua' }));
      expect(await screen.findByText('Download Started!')).toBeTruthy();
      expect(downloads).toEqual([{ name: 'free.lua', href: 'blob:test' }]);
      expect(await createObjectURL.mock.calls[0]![0].text()).toBe('print("hi")');
    } finally {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });

  it('says the download failed when the file cannot be fetched', async () => {
    mockFetch({
      [CONFIG_URL]: () => json({ config: CONFIG }),
      '/api/hosted-scripts/free.lua': () => new Response('gone', { status: 404 }),
    });
    renderWithProviders(<ScriptsPage />, '/scripts');
    fireEvent.click(await screen.findByRole('button', { name: 'Download .lua' }));
    expect(await screen.findByText('Download Failed')).toBeTruthy();
    expect(screen.getByText('Failed to download free.lua. Please try again.')).toBeTruthy();
  });

  it('falls back to the default page with a Configuration Error card when the config fails', async () => {
    mockFetch({ [CONFIG_URL]: () => new Response('boom', { status: 500 }) });
    renderWithProviders(<ScriptsPage />, '/script');
    expect(await screen.findByText('Configuration Error')).toBeTruthy();
    expect(screen.getByText('Failed to load page configuration. Showing default view.')).toBeTruthy();
    expect(screen.getByText('Unable to load dynamic configuration. Please contact support.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Scanline Scripts', level: 1 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Free Scanner' })).toBeTruthy();
  });
});
