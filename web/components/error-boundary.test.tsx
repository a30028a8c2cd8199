import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorLevel, ErrorReport } from '../../common/error-report.ts';
import { ERROR_TEXTS, ErrorBoundary } from './error-boundary.tsx';
import { retryDelayMs } from './error-reporting.ts';

/**
 * Renders a boundary at `level` around a child that throws while `state.failing` is set, else renders
 * "Recovered". (A flag, not a render count: React renders a throwing tree twice per attempt before it
 * gives up to the boundary.) `rerender()` renders the same tree again, as a router does in place.
 */
function renderFlaky(level: ErrorLevel) {
  const state = { renders: 0, failing: true };
  function Flaky() {
    state.renders += 1;
    if (state.failing) throw new Error('boom');
    return <p>Recovered</p>;
  }
  const tree = () => (
    <ErrorBoundary level={level}>
      <Flaky />
    </ErrorBoundary>
  );
  const { rerender } = render(tree());
  return { state, rerender: () => rerender(tree()) };
}

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function reports(): ErrorReport[] {
  return fetchMock.mock.calls
    .filter(([url]) => url === '/api/admin/error-report')
    .map(([, init]) => JSON.parse((init as RequestInit).body as string) as ErrorReport);
}

describe('retryDelayMs', () => {
  it('starts at 1 s and doubles up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('ErrorBoundary at component level', () => {
  it('retries on its own after 1 s, 2 s and 4 s, then stops and disables Try Again', () => {
    vi.useFakeTimers();
    const { state } = renderFlaky('component');
    expect(screen.getByText(ERROR_TEXTS.component)).toBeTruthy();
    const rendersAfter = (ms: number) => {
      const before = state.renders;
      act(() => {
        vi.advanceTimersByTime(ms);
      });
      return state.renders > before;
    };

    expect(rendersAfter(999)).toBe(false);
    expect(rendersAfter(1)).toBe(true);
    expect(screen.getByText('Retry attempts: 1/3', { exact: false })).toBeTruthy();
    expect(rendersAfter(1999)).toBe(false);
    expect(rendersAfter(1)).toBe(true);
    expect(rendersAfter(3999)).toBe(false);
    expect(rendersAfter(1)).toBe(true);
    expect(screen.getByText('Retry attempts: 3/3', { exact: false })).toBeTruthy();

    // Out of retries: no more automatic attempts, and the button is off.
    expect(rendersAfter(60_000)).toBe(false);
    expect((screen.getByRole('button', { name: 'Try Again' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the child again once a retry succeeds', () => {
    vi.useFakeTimers();
    const { state } = renderFlaky('component');
    expect(screen.queryByText('Recovered')).toBeNull();
    state.failing = false;
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByText('Recovered')).toBeTruthy();
  });

  it('lets Try Again retry at once, before the automatic retry is due', () => {
    vi.useFakeTimers();
    const { state } = renderFlaky('component');
    state.failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Recovered')).toBeTruthy();
  });

  it('reports every caught error with the ErrorReport shape', () => {
    vi.useFakeTimers();
    renderFlaky('component');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    const sent = reports();
    expect(sent).toHaveLength(2);
    const [first, second] = sent as [ErrorReport, ErrorReport];
    expect(first).toMatchObject({
      level: 'component',
      error: { name: 'Error', message: 'boom' },
      url: window.location.href,
      userAgent: navigator.userAgent,
      sessionData: { retryCount: 0 },
    });
    expect(second.sessionData?.retryCount).toBe(1);
    expect(first.errorId).toMatch(/^err_/);
    expect(first.errorId).not.toBe(second.errorId);
    expect(new Date(first.timestamp).toISOString()).toBe(first.timestamp);
    expect((first.errorInfo as { componentStack: string }).componentStack).toContain('Flaky');
    const init = fetchMock.mock.calls[0]![1] as RequestInit;
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
  });

  it('ignores a failing report', async () => {
    fetchMock.mockRejectedValue(new TypeError('offline'));
    renderFlaky('component');
    await act(async () => {});
    expect(screen.getByText(ERROR_TEXTS.component)).toBeTruthy();
  });
});

describe('ErrorBoundary at page level', () => {
  it('counts manual retries out of 3 and does not retry on its own', () => {
    vi.useFakeTimers();
    const { state } = renderFlaky('page');
    expect(screen.getByRole('heading', { name: ERROR_TEXTS.page })).toBeTruthy();
    expect(screen.getByText('Retry attempts: 0/3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeTruthy();

    const renders = state.renders;
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(state.renders).toBe(renders);

    for (const n of [1, 2, 3]) {
      fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
      expect(screen.getByText(`Retry attempts: ${n}/3`)).toBeTruthy();
    }
    expect((screen.getByRole('button', { name: 'Try Again' }) as HTMLButtonElement).disabled).toBe(true);
    expect(reports().map((r) => r.level)).toEqual(['page', 'page', 'page', 'page']);
  });
});

describe('ErrorBoundary after a navigation', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('starts afresh when the router shows another address in its place', () => {
    const { state, rerender } = renderFlaky('page');
    expect(screen.getByRole('heading', { name: ERROR_TEXTS.page })).toBeTruthy();
    // What a router link does: push the new address, then render the new page in the same slot.
    window.history.pushState(null, '', '/elsewhere');
    state.failing = false;
    rerender();
    expect(screen.getByText('Recovered')).toBeTruthy();
  });

  it('starts afresh on browser back/forward', () => {
    const { state } = renderFlaky('page');
    state.failing = false;
    act(() => {
      window.history.pushState(null, '', '/back-there');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByText('Recovered')).toBeTruthy();
  });

  it('keeps the fallback while the address stays the same', () => {
    const { state, rerender } = renderFlaky('page');
    state.failing = false;
    rerender();
    expect(screen.queryByText('Recovered')).toBeNull();
  });
});

describe('ErrorBoundary at critical level', () => {
  it('fills the screen with the critical message, its buttons and the error id', () => {
    renderFlaky('critical');
    expect(screen.getByRole('heading', { name: ERROR_TEXTS.critical })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload Application' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toBeTruthy();
    const [report] = reports();
    expect(screen.getByText(report!.errorId)).toBeTruthy();
    expect(report?.level).toBe('critical');
  });
});
