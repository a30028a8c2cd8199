import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '@/components/toaster.tsx';
import { createQueryClient } from '@/lib/api.ts';

/**
 * Renders `ui` at `path` the way main.tsx mounts the app: a fresh query client with the default GET,
 * a data router (so screens may block navigation) and the toaster. `ui` is the router's one catch-all
 * route; its own <Routes> match below it. Returns Testing Library's result, the query client and the
 * router (router.navigate stands in for the browser's back button and address bar).
 */
export function renderWithProviders(ui: ReactNode, path = '/') {
  const queryClient = createQueryClient();
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...utils, queryClient, router };
}

/** A JSON answer. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Answers one stubbed call; `init` is what the page passed to fetch. */
export type FetchHandler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/**
 * Stubs fetch with handlers keyed by "METHOD path" (or just the path for a GET); the query string is
 * not part of the key. Unknown calls answer 404. Returns the mock for call checks.
 */
export function mockFetch(handlers: Record<string, FetchHandler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const handler =
      handlers[`${method} ${url.pathname}`] ?? (method === 'GET' ? handlers[url.pathname] : undefined);
    return handler ? handler(init, url) : json({ error: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** jsdom has no clipboard; the pages write through navigator.clipboard. */
export function mockClipboard() {
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

/** GET /api/admin/dashboard/stats for an empty system: what the admin shell's session check asks for. */
export const EMPTY_DASHBOARD_STATS = {
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
  sales: {
    today: { orders: 0, amount: 0 },
    week: { orders: 0, amount: 0 },
    currency: 'USD',
    connected: false,
  },
};
