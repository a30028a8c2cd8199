import { waitFor, within } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { FakeWebSocket } from '@/test/fake-websocket.ts';
import { json, type mockFetch, renderWithProviders } from '@/test/render.tsx';

function CurrentPath() {
  return <output data-testid="current-path">{useLocation().pathname}</output>;
}

/**
 * Renders `element` at `path` with the app's providers (web/test/render.tsx), with `children` as
 * nested routes; shows the current path in a `current-path` test id. With a specific `routePattern`
 * and no children, /admin/dashboard is a stub screen (where a login lands).
 */
export function renderAt(element: ReactElement, path: string, routePattern = '*', children?: ReactNode) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path={routePattern} element={element}>
          {children}
        </Route>
        {routePattern !== '*' && !children && (
          <Route path="/admin/dashboard" element={<p>Dashboard stub</p>} />
        )}
      </Routes>
      <CurrentPath />
    </>,
    path,
  );
}

/** How many GETs of `path` the page made. */
export function getsOf(fetchMock: ReturnType<typeof mockFetch>, path: string): number {
  return fetchMock.mock.calls.filter(([input, init]) => {
    const url = new URL(String(input), 'http://localhost');
    return url.pathname === path && (init?.method ?? 'GET') === 'GET';
  }).length;
}

/**
 * Each test starts with no socket and no toast, and leaves fetch as it found it. Call at the top of
 * a test file that mocks '@/lib/toast.ts'.
 */
export function resetBetweenTests(): void {
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.mocked(toast).mockClear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
}

/** Waits for a toast with this title and description (and variant, for the destructive ones). */
export async function expectToast(title: string, description: string, variant?: 'destructive' | 'default') {
  const expected = variant ? { title, description, variant } : { title, description };
  await waitFor(() => expect(toast).toHaveBeenCalledWith(expected));
}

/** From now on every POST fails without an answer, as when the network is gone. */
export function failPosts(fetchMock: ReturnType<typeof mockFetch>): void {
  const answer = fetchMock.getMockImplementation();
  fetchMock.mockImplementation(async (input, init) => {
    if (init?.method === 'POST') throw new TypeError('Failed to fetch');
    return answer?.(input, init) ?? json({ error: 'not found' }, 404);
  });
}

/** The message shown under a labelled field of `container` (its FormField's alert), or null while it has none. */
export function fieldMessage(container: HTMLElement, label: string): string | null {
  const field = within(container).getByLabelText(label).closest('div.grid');
  if (!(field instanceof HTMLElement)) throw new Error(`${label}: no FormField around it`);
  return within(field).queryByRole('alert')?.textContent ?? null;
}
