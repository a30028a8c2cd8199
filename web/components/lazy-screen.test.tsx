import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_TEXTS, ErrorBoundary } from './error-boundary.tsx';
import { lazyScreen, SCREEN_RETRY_MS, WAITING_FOR_SERVER_TEXT } from './lazy-screen.tsx';

/**
 * A screen's code behind a network that is down until `serverUp()`: the loader stands in for the
 * browser's fetch of the chunk, the one thing a component test cannot do for real.
 */
function screenBehindOutage() {
  let up = false;
  const load = vi.fn(async () => {
    if (!up) throw new TypeError('Failed to fetch dynamically imported module');
    return { default: () => <h1>Server Pool Monitor</h1> };
  });
  return { ...lazyScreen(load), load, serverUp: () => (up = true) };
}

function renderPage(Screen: React.ComponentType, queryClient = new QueryClient()) {
  render(
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary level="page">
        <Suspense fallback={<p>Loading...</p>}>
          <Screen />
        </Suspense>
      </ErrorBoundary>
    </QueryClientProvider>,
  );
  return queryClient;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('lazyScreen', () => {
  it('renders the screen once its code is fetched', async () => {
    const chunk = screenBehindOutage();
    chunk.serverUp();
    renderPage(chunk.Screen);
    expect(await screen.findByRole('heading', { name: 'Server Pool Monitor' })).toBeTruthy();
  });

  it('waits quietly while the code cannot be fetched, and shows the screen once the server answers an API call', async () => {
    const chunk = screenBehindOutage();
    const queryClient = renderPage(chunk.Screen);
    expect(await screen.findByText(WAITING_FOR_SERVER_TEXT)).toBeTruthy();
    expect(screen.queryByText(ERROR_TEXTS.page)).toBeNull();

    chunk.serverUp();
    // The shell's session check (or any other call) succeeding is the sign the server is back.
    await act(() => queryClient.fetchQuery({ queryKey: ['admin-session'], queryFn: async () => true }));
    expect(await screen.findByRole('heading', { name: 'Server Pool Monitor' })).toBeTruthy();
    expect(screen.queryByText(WAITING_FOR_SERVER_TEXT)).toBeNull();
  });

  it('tries again on its own every few seconds while nothing else reaches the server', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const chunk = screenBehindOutage();
    renderPage(chunk.Screen);
    expect(await screen.findByText(WAITING_FOR_SERVER_TEXT)).toBeTruthy();

    chunk.serverUp();
    await act(() => vi.advanceTimersByTimeAsync(SCREEN_RETRY_MS));
    expect(await screen.findByRole('heading', { name: 'Server Pool Monitor' })).toBeTruthy();
  });

  it('fetches ahead of a visit with preload, so a later outage does not keep the screen away', async () => {
    const chunk = screenBehindOutage();
    chunk.serverUp();
    await chunk.preload();
    renderPage(chunk.Screen);
    expect(screen.getByRole('heading', { name: 'Server Pool Monitor' })).toBeTruthy();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });
});
