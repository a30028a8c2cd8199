import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/api.ts';
import { EMPTY_DASHBOARD_STATS, json, mockFetch } from '@/test/render.tsx';
import {
  ADMIN_LOGIN_PATH,
  ADMIN_SCREEN_SEGMENTS,
  ADMIN_SCREEN_TITLES,
  type AdminScreenName,
  PUBLIC_PAGE_PATHS,
  WEB_PAGE_PATHS,
} from '../common/web-routes.ts';
import { appRoutes, type PageHandle } from './routes.tsx';

// The shell's socket is another suite's business.
vi.mock('@/lib/realtime.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/realtime.tsx')>()),
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
}));

const STATS = EMPTY_DASHBOARD_STATS;

/** The app's own route table at `path`, as main.tsx mounts it. */
function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
  document.title = '';
});

/** Every route of the table with a page of its own (no layout-only route), with its path. */
function pageRoutes(routes: RouteObject[], parent: string): { path: string; route: RouteObject }[] {
  return routes.flatMap((route) => {
    const path = route.index
      ? parent
      : route.path === undefined
        ? parent
        : route.path.startsWith('/') || route.path === '*'
          ? route.path
          : `${parent === '/' ? '' : parent}/${route.path}`;
    // A layout (the console's shell) is no page of its own: its index route is.
    const page = route.index || (route.path !== undefined && route.element && !route.children?.length);
    return [...(page ? [{ path, route }] : []), ...pageRoutes(route.children ?? [], path)];
  });
}

describe('appRoutes', () => {
  it('shows an unknown admin path as not found inside the console, with a way back to the dashboard', async () => {
    mockFetch({ '/api/admin/dashboard/stats': () => json(STATS) });
    renderApp('/admin/no-such-screen');
    // The console's code is transformed on first import here: slow on a busy machine.
    const main = await screen.findByRole('main', {}, { timeout: 15_000 });
    expect(await within(main).findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Admin' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/admin/dashboard',
    );
    expect(within(main).queryByRole('link', { name: 'Go to Home' })).toBeNull();
    // The console fetches (here: transforms) every screen's code once it is in.
  }, 30_000);

  it('shows an unknown public path as the public not-found page, whose button goes home', async () => {
    mockFetch({});
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Admin' })).toBeNull();
  });

  it('gives every page of the table a title of its own (the screens, the login page, not found)', () => {
    const pages = pageRoutes(appRoutes, '/');
    const titles = pages.map(
      ({ path, route }) => [path, (route.handle as PageHandle | undefined)?.title] as const,
    );
    for (const [path, title] of titles) expect(title, path).toMatch(/ · Scanline$/);
    // The index shows the dashboard, under the dashboard's title; the two not-found pages share theirs.
    const byScreen = new Map(titles.filter(([path]) => path !== '/admin' && !path?.endsWith('*')));
    expect(new Set(byScreen.values()).size).toBe(byScreen.size);
    expect(Object.fromEntries(titles)['/admin']).toBe(ADMIN_SCREEN_TITLES.dashboard);
    for (const [name, segment] of Object.entries(ADMIN_SCREEN_SEGMENTS))
      expect(byScreen.get(`/admin/${segment}`), segment).toBe(ADMIN_SCREEN_TITLES[name as AdminScreenName]);
  });

  it('titles the document as soon as a route matches, before its screen has loaded', async () => {
    // Signed out: the login form stays (signed in, it would go on to the dashboard by itself).
    mockFetch({ '/api/admin/dashboard/stats': () => json({ error: 'Authentication required' }, 401) });
    const router = renderApp(ADMIN_LOGIN_PATH);
    await waitFor(() => expect(document.title).toBe('Admin Login · Scanline'));
    await router.navigate('/admin/security');
    await waitFor(() => expect(document.title).toBe('Security & Analytics · Scanline'));
    await router.navigate('/no-such-page');
    await waitFor(() => expect(document.title).toBe('Page Not Found · Scanline'));
  });

  it("has a page at exactly the console's paths the server serves it on (the public pages are prerendered)", () => {
    const pagePaths = (routes: RouteObject[], parent: string): string[] =>
      routes.flatMap((route) => {
        if (route.path === '*') return [];
        const path = route.index
          ? parent
          : route.path === undefined
            ? parent
            : route.path.startsWith('/')
              ? route.path
              : `${parent === '/' ? '' : parent}/${route.path}`;
        const own = route.index || (route.path !== undefined && route.element) ? [path] : [];
        return [...own, ...pagePaths(route.children ?? [], path)];
      });
    const publicPaths = new Set<string>(PUBLIC_PAGE_PATHS);
    const consolePaths = WEB_PAGE_PATHS.filter((path) => !publicPaths.has(path));
    expect(new Set(pagePaths(appRoutes, '/'))).toEqual(new Set(consolePaths));
  });
});
