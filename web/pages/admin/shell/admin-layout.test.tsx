import { useQuery } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_DASHBOARD_STATS, json, mockFetch } from '@/test/render.tsx';
import { OFFLINE_RETRY_MS } from '../shared/admin-session.ts';
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
const STATS = EMPTY_DASHBOARD_STATS;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
});

const SCREEN_URL = '/api/admin/some-screen';

/** A screen that loads something of its own, as every admin screen does. */
function LoadingScreen() {
  const answer = useQuery({ queryKey: [SCREEN_URL] });
  return <p>{answer.isError ? 'Screen failed' : 'Some screen'}</p>;
}

/** The layout with its child screens, as routes.tsx mounts it. */
function renderLayout(path: string) {
  return renderAt(
    <AdminLayout />,
    path,
    '/admin/*',
    <>
      <Route path="dashboard" element={<p>Dashboard screen</p>} />
      <Route path="system-configuration" element={<p>System configuration screen</p>} />
      <Route path="some-screen" element={<LoadingScreen />} />
    </>,
  );
}

const sidebar = () => screen.getByRole('navigation', { name: 'Admin' });
const networkDown = () => {
  throw new TypeError('Failed to fetch');
};

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
    // License Keys, which the spec's list leaves out, sits with the licensing screens.
    expect(ADMIN_NAV.map((item) => item.label)).toEqual([
      'Dashboard',
      'Live Monitoring',
      'Server Pool',
      'Live Configuration',
      'Notifications',
      'Orders',
      'System Configuration',
      'Redemption Codes',
      'License Keys',
      'Security & Analytics',
      'Script Management',
      'Scripts Page Editor',
      'File Manager',
      'Script Keys',
      'AI Debugging',
    ]);
    expect(
      within(nav)
        .getByRole('link', { name: /License Keys/ })
        .getAttribute('href'),
    ).toBe('/admin/license-keys');
    expect(links[0]?.textContent).toContain('Overview and key metrics');
    expect(links[1]?.textContent).toContain('LIVE');
    expect(links[6]?.textContent).toContain('Slot capacity and payment wallets');
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

  it.each([
    ['the network fails', networkDown],
    ['the server answers 503', () => json({ error: 'Service unavailable' }, 503)],
  ])(
    'keeps the console with a banner when %s, and drops the banner once the server answers',
    async (_, down) => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      let serverDown = false;
      mockFetch({ [STATS_URL]: () => (serverDown ? down() : json(STATS)) });
      renderLayout('/admin/system-configuration');
      await screen.findByText('System configuration screen');
      expect(screen.queryByRole('alert')).toBeNull();

      serverDown = true;
      fireEvent.click(within(sidebar()).getByText('Dashboard'));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('Server unreachable — retrying…');
      expect(screen.getByText('Dashboard screen')).toBeTruthy();
      expect(within(sidebar()).getByText('System Configuration')).toBeTruthy();
      expect(screen.queryByLabelText('Admin Secret')).toBeNull();

      // The check repeats on its own while the server is away; the banner goes when it answers.
      serverDown = false;
      await act(() => vi.advanceTimersByTimeAsync(OFFLINE_RETRY_MS));
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
      expect(screen.getByText('Dashboard screen')).toBeTruthy();
    },
  );

  it('shows the banner, not the login form, when the server is unreachable before the first answer', async () => {
    mockFetch({ [STATS_URL]: networkDown });
    renderLayout('/admin/dashboard');
    expect((await screen.findByRole('alert')).textContent).toContain('Server unreachable — retrying…');
    expect(screen.getByText('Checking authentication...')).toBeTruthy();
    expect(screen.queryByLabelText('Admin Secret')).toBeNull();
  });

  it("shows the login form when a screen's call answers 401 while signed in (session expired)", async () => {
    // The session ends right after the first check: no navigation follows, only the screen's 401 tells.
    let checks = 0;
    mockFetch({
      [STATS_URL]: () => (checks++ === 0 ? json(STATS) : json({ error: 'Admin session required' }, 401)),
      [SCREEN_URL]: () => json({ error: 'Admin session required' }, 401),
    });
    renderLayout('/admin/some-screen');
    expect(await screen.findByLabelText('Admin Secret')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).toBeNull();
    expect(screen.getByTestId('current-path').textContent).toBe('/admin/some-screen');
  });

  it("keeps the console when one screen's call fails with 500 but the session check answers", async () => {
    const fetchMock = mockFetch({
      [STATS_URL]: () => json(STATS),
      [SCREEN_URL]: () => json({ error: 'boom' }, 500),
    });
    renderLayout('/admin/some-screen');
    expect(await screen.findByText('Screen failed')).toBeTruthy();
    const checks = () => fetchMock.mock.calls.filter(([url]) => String(url) === STATS_URL).length;
    await waitFor(() => expect(checks()).toBeGreaterThanOrEqual(2));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByLabelText('Admin Secret')).toBeNull();
  });

  it('offers a skip link as the first stop of the keyboard, which moves focus to the screen', async () => {
    mockFetch({ [STATS_URL]: () => json(STATS) });
    renderLayout('/admin/dashboard');
    await screen.findByText('Dashboard screen');
    const focusable = document.querySelectorAll<HTMLElement>('a[href], button:not([tabindex="-1"]), input');
    const skip = focusable[0];
    expect(skip?.textContent).toBe('Skip to main content');
    fireEvent.click(skip!);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(within(screen.getByRole('main')).getByText('Dashboard screen')).toBeTruthy();
  });
});
