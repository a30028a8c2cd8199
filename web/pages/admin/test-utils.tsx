import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '@/lib/api.ts';

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

/** A JSON answer. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stubs fetch with handlers keyed by "METHOD path" (or just the path for GET); unknown calls answer 404. */
export function mockFetch(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const handler =
      handlers[`${method} ${url.pathname}`] ?? (method === 'GET' ? handlers[url.pathname] : undefined);
    return handler ? handler(init) : json({ error: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function CurrentPath() {
  return <output data-testid="current-path">{useLocation().pathname}</output>;
}

/**
 * Renders `element` at `path` inside a fresh query client and router, with `children` as nested
 * routes; shows the current path in a `current-path` test id. With a specific `routePattern` and no
 * children, /admin/dashboard is a stub screen (where a login lands).
 */
export function renderAt(element: ReactElement, path: string, routePattern = '*', children?: ReactNode) {
  const queryClient = createQueryClient();
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={routePattern} element={element}>
            {children}
          </Route>
          {routePattern !== '*' && !children && (
            <Route path="/admin/dashboard" element={<p>Dashboard stub</p>} />
          )}
        </Routes>
        <CurrentPath />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...utils, queryClient };
}
