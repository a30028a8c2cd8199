import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import { AUDIT_EVENT_AREAS, AUDIT_EVENT_TYPES } from '../../../../common/audit-events.ts';
import { formatDate } from '../../../../common/format.ts';
import type { AuditLog, AuditLogListResponse, RateLimitStatus } from '../../../../common/security.ts';
import { renderAt } from '../shared/test-utils.tsx';
import SecurityPage from './security.tsx';

const LOGS_URL = '/api/admin/security/audit-logs';
const LIMITS_URL = '/api/admin/security/rate-limits';

function auditLog(overrides: Partial<AuditLog> = {}): AuditLog {
  return {
    id: 1,
    eventType: 'binding_attempt',
    success: 1,
    licenseKey: 'SCAN-ABCD-EFGH-IJKL-MNOP',
    ipAddress: '203.0.113.7',
    hardwareId: 'HWID-PHONE-0001',
    timestamp: '2026-11-22T10:00:00.000Z',
    details: { scriptKeyId: 3, activeBindings: 1, maxBindings: 2 },
    ...overrides,
  };
}

const LOGS: AuditLog[] = [
  auditLog(),
  auditLog({
    id: 2,
    eventType: 'binding_attempt',
    success: 0,
    hardwareId: 'HWID-FOURTH-DEVICE',
    details: { reason: 'device limit reached' },
  }),
  auditLog({ id: 3, eventType: 'admin_login', licenseKey: null, hardwareId: null, details: {} }),
];

function rateLimits(overrides: Partial<RateLimitStatus> = {}): RateLimitStatus {
  return {
    activeLimits: 3,
    totalLimits: 8,
    hitCount24h: 42,
    topLimitedIPs: [
      { identifier: '198.51.100.1', limitType: 'loader', count: 20 },
      { identifier: '198.51.100.2', limitType: 'redeem', count: 9 },
      { identifier: '198.51.100.3', limitType: 'login', count: 6 },
      { identifier: 'SCAN-KEY-4', limitType: 'loader', count: 4 },
      { identifier: '198.51.100.5', limitType: 'challenge', count: 2 },
      { identifier: '198.51.100.6', limitType: 'loader', count: 1 },
    ],
    ...overrides,
  };
}

/**
 * A server answering the audit log by its query (eventType filters, limit caps) and the rate limits,
 * recording every audit-log URL asked for.
 */
function fakeServer({ logs = LOGS, limits = rateLimits(), last24h = 57 } = {}) {
  const logUrls: string[] = [];
  const fetchMock = mockFetch({
    [LOGS_URL]: (_init, url) => {
      logUrls.push(`${url.pathname}${url.search}`);
      const eventType = url.searchParams.get('eventType');
      const matching = logs.filter((log) => !eventType || log.eventType === eventType);
      const page = matching.slice(0, Number(url.searchParams.get('limit')));
      const body: AuditLogListResponse = {
        logs: page,
        count: page.length,
        total: matching.length,
        last24h,
        timestamp: '2026-11-22T12:00:00.000Z',
      };
      return json(body);
    },
    [LIMITS_URL]: () => json({ rateLimits: limits, timestamp: '2026-11-22T12:00:00.000Z' }),
  });
  return { logUrls, fetchMock };
}

function renderPage() {
  return renderAt(<SecurityPage />, '/admin/security');
}

/** The stat card titled `title` shows `value`. */
function expectStat(title: string, value: string): void {
  expect(within(screen.getByRole('group', { name: title })).getByText(value, { exact: true })).toBeTruthy();
}

/** The event of every audit row on screen, top to bottom, as the Event column names it. */
function shownEvents(): string[] {
  return [...document.querySelectorAll('tr[data-log-id]')].map(
    (row) => row.querySelector('td')?.textContent ?? '',
  );
}

/** The event id (the tooltip) of every audit row on screen. */
function shownEventIds(): (string | null)[] {
  return [...document.querySelectorAll('tr[data-log-id] td:first-child [title]')].map((cell) =>
    cell.getAttribute('title'),
  );
}

async function choose(user: ReturnType<typeof userEvent.setup>, filter: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: filter }));
  await user.click(await screen.findByRole('option', { name: option }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SecurityPage', () => {
  it('shows the four cards: events in 24 h, rate limit hits, active limits and health', async () => {
    fakeServer();
    renderPage();
    await screen.findByRole('group', { name: 'System Health' });
    expectStat('Security Events (24h)', '57');
    expectStat('Rate Limit Hits', '42');
    expectStat('Active Rate Limits', '3');
    expectStat('System Health', 'Healthy');
  });

  it('says under System Health what it knows: both feeds answered, and as of when', async () => {
    fakeServer();
    renderPage();
    const health = await screen.findByRole('group', { name: 'System Health' });
    expect(health.textContent).toContain(
      `Audit log and rate limiter answering, as of ${formatDate('2026-11-22T12:00:00.000Z')}`,
    );
    expect(health.textContent).not.toContain('loading normally');
  });

  it('says under System Health when the latest refresh failed, keeping the last answer', async () => {
    const user = userEvent.setup();
    const { fetchMock } = fakeServer();
    renderPage();
    await screen.findByRole('group', { name: 'System Health' });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).startsWith(LIMITS_URL)
        ? json({ error: 'database unavailable' }, 503)
        : answer(input, init),
    );
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const health = screen.getByRole('group', { name: 'System Health' });
    await waitFor(() =>
      expect(health.textContent).toContain('Latest refresh failed; showing the last answers'),
    );
    expect(within(health).getByText('Healthy', { exact: true })).toBeTruthy();
  });

  it('shows rate limit utilisation as active over total limits, and the top 5 limited callers', async () => {
    fakeServer();
    renderPage();
    await screen.findByText('Rate Limiting Status');
    expect(screen.getByTestId('rate-limit-utilisation').textContent).toBe('38%');
    expect(
      screen.getByRole('progressbar', { name: 'Rate limit utilisation' }).getAttribute('aria-valuenow'),
    ).toBe('38');
    const top = within(screen.getByRole('region', { name: 'Top limited IPs' }));
    const items = top.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '198.51.100.1loader20 hits',
      '198.51.100.2redeem9 hits',
      '198.51.100.3login6 hits',
      'SCAN-KEY-4loader4 hits',
      '198.51.100.5challenge2 hits',
    ]);
  });

  it('reads 0% utilisation and no limited callers when nothing is being counted', async () => {
    fakeServer({
      limits: rateLimits({ activeLimits: 0, totalLimits: 0, hitCount24h: 0, topLimitedIPs: [] }),
    });
    renderPage();
    expect((await screen.findByTestId('rate-limit-utilisation')).textContent).toBe('0%');
    expect(screen.getByText('No rate limit hits in the last 24 hours.')).toBeTruthy();
  });

  it('lists the last 24 hours of events with every column, failed ones in red', async () => {
    fakeServer();
    renderPage();
    expect(await screen.findByText(/^Events from the last 24 hours/)).toBeTruthy();
    const failed = (await screen.findByText('HWID-FOURTH-DEVICE')).closest('tr')!;
    expect(failed.className).toContain('text-red-400');
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('reason: device limit reached')).toBeTruthy();

    const ok = screen.getByText('HWID-PHONE-0001').closest('tr')!;
    expect(ok.className).not.toContain('text-red-400');
    const cells = within(ok)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 5)).toEqual([
      'Device binding attempt',
      'Success',
      'SCAN-ABC...MNOP',
      '203.0.113.7',
      'HWID-PHONE-0001',
    ]);
    expect(cells[5]).toMatch(/^Nov 22, 2026/);
    expect(cells[6]).toBe('scriptKeyId: 3, activeBindings: 1, maxBindings: 2');
  });

  it('asks for 100 events of every type first, then only the chosen type (all leaves eventType out)', async () => {
    const user = userEvent.setup();
    const { logUrls } = fakeServer();
    renderPage();
    await waitFor(() =>
      expect(shownEvents()).toEqual(['Device binding attempt', 'Device binding attempt', 'Admin sign-in']),
    );
    expect(shownEventIds()).toEqual(['binding_attempt', 'binding_attempt', 'admin_login']);
    expect(logUrls).toEqual([`${LOGS_URL}?limit=100&offset=0`]);

    await choose(user, 'Event Type', 'Admin sign-in');
    await waitFor(() => expect(shownEvents()).toEqual(['Admin sign-in']));
    expect(logUrls.at(-1)).toBe(`${LOGS_URL}?limit=100&offset=0&eventType=admin_login`);

    // An event the log has not shown yet can be picked too.
    await choose(user, 'Event Type', 'Loader challenge issued');
    expect(await screen.findByText('No security events found')).toBeTruthy();
    expect(logUrls.at(-1)).toBe(`${LOGS_URL}?limit=100&offset=0&eventType=challenge_issued`);

    await choose(user, 'Event Type', 'All events');
    await waitFor(() => expect(shownEvents()).toHaveLength(3));
    expect(logUrls.at(-1)).toBe(`${LOGS_URL}?limit=100&offset=0`);
  });

  it('names every event the server writes in plain words, by area, with its id as the tooltip', async () => {
    const user = userEvent.setup();
    fakeServer({
      logs: [...LOGS, auditLog({ id: 4, eventType: 'some_future_event', licenseKey: null, details: {} })],
    });
    renderPage();
    await waitFor(() => expect(shownEvents()).toHaveLength(4));
    expect(shownEvents()[3]).toBe('Some future event');
    await user.click(screen.getByRole('combobox', { name: 'Event Type' }));
    const options = await screen.findAllByRole('option');
    const byName = new Map(options.map((option) => [option.textContent, option.getAttribute('title')]));
    expect(options).toHaveLength(1 + AUDIT_EVENT_TYPES.length + 1);
    expect(byName.get('Emergency stop')).toBe('configuration_emergency_stop');
    expect(byName.get('License key created')).toBe('license_key_created');
    expect(byName.get('Some future event')).toBe('some_future_event');
    for (const option of options) expect(option.textContent).not.toMatch(/_/);
    const groups = screen.getAllByRole('group').filter((group) => group.closest('[role="listbox"]'));
    expect(groups.map((group) => group.firstElementChild?.textContent)).toEqual([
      ...AUDIT_EVENT_AREAS,
      'Other events',
    ]);
    await user.click(screen.getByRole('option', { name: 'Emergency stop' }));
    expect(screen.getByRole('combobox', { name: 'Event Type' }).textContent).toBe('Emergency stop');
    expect(screen.getByRole('combobox', { name: 'Event Type' }).getAttribute('title')).toBe(
      'configuration_emergency_stop',
    );
  });

  it('offers page sizes 50, 100, 200 and 500 and asks for the chosen one', async () => {
    const user = userEvent.setup();
    const { logUrls } = fakeServer();
    renderPage();
    await waitFor(() => expect(shownEvents()).toHaveLength(3));
    await user.click(screen.getByRole('combobox', { name: 'Page Size' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      '50 rows',
      '100 rows',
      '200 rows',
      '500 rows',
    ]);
    await user.click(screen.getByRole('option', { name: '500 rows' }));
    await waitFor(() => expect(logUrls.at(-1)).toBe(`${LOGS_URL}?limit=500&offset=0`));
  });

  it('refreshes the audit log and the rate limits together', async () => {
    const user = userEvent.setup();
    const { fetchMock } = fakeServer();
    renderPage();
    await screen.findByRole('group', { name: 'System Health' });
    const asked = (path: string) =>
      fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path)).length;
    expect([asked(LOGS_URL), asked(LIMITS_URL)]).toEqual([1, 1]);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect([asked(LOGS_URL), asked(LIMITS_URL)]).toEqual([2, 2]));
  });

  it("says 'No security events found' when the last 24 hours are empty", async () => {
    fakeServer({ logs: [], last24h: 0 });
    renderPage();
    expect(await screen.findByText('No security events found')).toBeTruthy();
    expectStat('Security Events (24h)', '0');
  });

  it.each([
    ['the audit log', LOGS_URL],
    ['the rate limits', LIMITS_URL],
  ])('asks to refresh the page when %s cannot be loaded', async (_what, failing) => {
    const { fetchMock } = fakeServer();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).startsWith(failing) ? json({ error: 'database unavailable' }, 503) : answer(input, init),
    );
    renderPage();
    expect(
      await screen.findByText('Failed to load security data. Please try refreshing the page.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
