import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import { renderAt } from '../shared/test-utils.tsx';
import AdminLayout from './admin-layout.tsx';
import { ADMIN_NAV } from './admin-nav.ts';

// The shell's socket is another suite's business: without a provider, useRealtime gives its inert,
// disconnected default.
vi.mock('@/lib/realtime.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/realtime.tsx')>()),
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
}));

const STATS_URL = '/api/admin/dashboard/stats';
const STATS = {
  timestamp: '2026-11-22T10:00:00.000Z',
  stats: {
    totalKeys: 0,
    activeKeys: 0,
    expiredKeys: 0,
    revokedKeys: 0,
    totalBindings: 0,
    activeBindings: 0,
    todayUsage: 0,
    weeklyUsage: 0,
    monthlyUsage: 0,
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
});

/** The layout with two child screens, as routes.tsx mounts it. */
function renderLayout(path: string) {
  return renderAt(
    <AdminLayout />,
    path,
    '/admin/*',
    <>
      <Route path="dashboard" element={<p>Dashboard screen</p>} />
      <Route path="system-configuration" element={<p>System configuration screen</p>} />
    </>,
  );
}

describe('AdminLayout', () => {
  it("shows 'Checking authentication...' and then the login form in place when the check fails", async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch({ [STATS_URL]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderLayout('/admin/dashboard');
    expect(screen.getByText('Checking authentication...')).toBeTruthy();

    answer(json({ error: 'Admin session required' }, 401));
    expect(await screen.findByLabelText('Admin Secret')).toBeTruthy();
    expect(screen.queryByText('Dashboard screen')).toBeNull();
    expect(screen.getByTestId('current-path').textContent).toBe('/admin/dashboard');
  });

  it('shows the sidebar in the spec order, highlights the current screen and forces dark mode', async () => {
    mockFetch({ [STATS_URL]: () => json(STATS) });
    const { unmount } = renderLayout('/admin/system-configuration');
    expect(await screen.findByText('System configuration screen')).toBeTruthy();

    const nav = screen.getByRole('navigation', { name: 'Admin' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(ADMIN_NAV.map((item) => item.path));
    expect(links[0].textContent).toContain('Overview and key metrics');
    expect(links[1].textContent).toContain('LIVE');
    expect(links[4].textContent).toContain('Slot capacity and payment wallets');
    expect(
      links.filter((link) => link.getAttribute('aria-current') === 'page').map((l) => l.textContent),
    ).toEqual([expect.stringContaining('System Configuration')]);
    expect(screen.getByRole('button', { name: 'Toggle menu' })).toBeTruthy();
    const sidebar = screen.getByRole('complementary');
    expect(within(sidebar).getByText('Disconnected')).toBeTruthy();
    expect(within(sidebar).getByRole('button', { name: 'Reconnect' })).toBeTruthy();
    expect(within(sidebar).getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(
      within(sidebar)
        .getByRole('link', { name: /Back to public site/ })
        .getAttribute('href'),
    ).toBe('/');
    expect(document.documentElement.classList.contains('dark')).toBe(true);

    unmount();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('checks the session again on every path change', async () => {
    const fetchMock = mockFetch({ [STATS_URL]: () => json(STATS) });
    renderLayout('/admin/system-configuration');
    await screen.findByText('System configuration screen');
    const checks = () => fetchMock.mock.calls.filter(([url]) => String(url) === STATS_URL).length;
    const before = checks();

    fireEvent.click(within(screen.getByRole('navigation', { name: 'Admin' })).getByText('Dashboard'));
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
    await waitFor(() => expect(checks()).toBeGreaterThan(before));
  });

  it('logs out: tells the server, forgets the session and goes to /admin/login', async () => {
    const fetchMock = mockFetch({
      [STATS_URL]: () => json(STATS),
      'POST /api/admin/logout': () => json({ success: true }),
    });
    renderLayout('/admin/dashboard');
    await screen.findByText('Dashboard screen');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('current-path').textContent).toBe('/admin/login'));
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/api/admin/logout' && init?.method === 'POST'),
    ).toBe(true);
  });
});
