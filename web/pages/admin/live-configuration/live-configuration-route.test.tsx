import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/api.ts';
import { appRoutes } from '@/routes.tsx';
import { EMPTY_DASHBOARD_STATS, json, mockFetch } from '@/test/render.tsx';
import { bots, dashboard, PROFILES } from './live-configuration.fixtures.ts';

// The shell's socket is another suite's business.
vi.mock('@/lib/realtime.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/realtime.tsx')>()),
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/admin/configuration', () => {
  it('is the Live Configuration screen inside the console, its sidebar entry current', async () => {
    mockFetch({
      '/api/admin/dashboard/stats': () => json(EMPTY_DASHBOARD_STATS),
      '/api/admin/configurations/dashboard-stats': () => json(dashboard()),
      '/api/admin/configurations': () => json({ configurations: bots(3) }),
      '/api/admin/configuration-profiles': () => json({ profiles: PROFILES }),
      '/api/admin/configurations/history': () => json({ changes: [] }),
    });
    const router = createMemoryRouter(appRoutes, { initialEntries: ['/admin/configuration'] });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const main = await screen.findByRole('main');
    expect(await within(main).findByRole('heading', { name: 'Live Configuration' })).toBeTruthy();
    expect(await within(main).findByRole('group', { name: 'Total Configurations' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      within(nav)
        .getByRole('link', { name: /Live Configuration/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });
});
