import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import type { Delivery, Destination } from '../../../../common/notifications.ts';
import type { OutboundPolicy } from '../../../../common/outbound-url.ts';
import { expectToast, fieldMessage, renderAt, resetBetweenTests } from '../shared/test-utils.tsx';
import NotificationsPage from './notifications.tsx';

vi.mock('@/lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/toast.ts')>()),
  toast: vi.fn(),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

resetBetweenTests();

// Radix Switch measures itself inside a form; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const DESTINATIONS_URL = '/api/admin/notifications/destinations';
const DELIVERIES_URL = '/api/admin/notifications/deliveries';

function destination(overrides: Partial<Destination> = {}): Destination {
  return {
    id: 1,
    name: '#finds-1m',
    kind: 'discord',
    url: 'https://discord.com/api/webhooks/123/abcd…',
    minValue: 1_000_000,
    maxValue: 10_000_000,
    petNames: [],
    delaySeconds: 0,
    includeJoinData: true,
    mentionRoleId: null,
    mentionFromValue: null,
    enabled: true,
    maxAgeSeconds: null,
    maxAgeSecondsInEffect: 60,
    lateMode: 'drop',
    alerts: false,
    disabledReason: null,
    stats: {
      sent: 1234,
      pending: 2,
      failed: 1,
      dropped: 3,
      lastError: '503 Service Unavailable',
      p50Ms: 420,
      p99Ms: 1800,
    },
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    ...overrides,
  };
}

const gone = destination({
  id: 2,
  name: '#free-finds',
  minValue: 10_000_000,
  maxValue: null,
  petNames: ['Dragon', 'Phoenix'],
  delaySeconds: 300,
  enabled: false,
  maxAgeSeconds: 900,
  maxAgeSecondsInEffect: 900,
  lateMode: 'mark',
  disabledReason: 'Unknown Webhook (404)',
  stats: { sent: 0, pending: 0, failed: 0, dropped: 0, lastError: null, p50Ms: null, p99Ms: null },
});

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 50,
    destinationId: 1,
    destinationName: '#finds-1m',
    item: 'find',
    state: 'sent',
    attempts: 1,
    petName: 'Dragon',
    value: '$2.5M/s',
    numericValue: 2_500_000,
    foundAt: '2026-11-25T10:00:00.000Z',
    dueAt: '2026-11-25T10:00:00.000Z',
    sentAt: '2026-11-25T10:00:01.000Z',
    lastError: null,
    ...overrides,
  };
}

const failedDelivery = delivery({
  id: 51,
  petName: 'Phoenix',
  value: '$7M/s',
  state: 'failed',
  attempts: 10,
  sentAt: null,
  lastError: '502 Bad Gateway',
});

interface Call {
  method: string;
  path: string;
  search: string;
  body?: unknown;
}

/** A server holding destinations and deliveries, recording every call. */
function fakeServer(
  options: { destinations?: Destination[]; deliveries?: Delivery[]; urlPolicy?: OutboundPolicy } = {},
) {
  const destinations = options.destinations ?? [destination(), gone];
  const urlPolicy = options.urlPolicy ?? { allowHosts: [], allowPrivate: false };
  const deliveries = options.deliveries ?? [delivery(), failedDelivery];
  const calls: Call[] = [];
  const record = (method: string, url: URL, init?: RequestInit) =>
    calls.push({
      method,
      path: url.pathname,
      search: url.search,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
  const handlers: Parameters<typeof mockFetch>[0] = {
    [DESTINATIONS_URL]: () => json({ destinations, urlPolicy }),
    [DELIVERIES_URL]: (init, url) => {
      record('GET', url, init);
      const id = url.searchParams.get('destinationId');
      const state = url.searchParams.get('state');
      return json({
        deliveries: deliveries.filter(
          (d) => (!id || d.destinationId === Number(id)) && (!state || d.state === state),
        ),
      });
    },
    [`POST ${DESTINATIONS_URL}`]: (init, url) => {
      record('POST', url, init);
      return json({ destination: destination({ id: 3 }) }, 201);
    },
    [`POST ${DELIVERIES_URL}/51/retry`]: (init, url) => {
      record('POST', url, init);
      return json({ delivery: { ...failedDelivery, state: 'pending', attempts: 0 } });
    },
  };
  for (const d of destinations) {
    handlers[`PATCH ${DESTINATIONS_URL}/${d.id}`] = (init, url) => {
      record('PATCH', url, init);
      return json({ destination: d });
    };
    handlers[`DELETE ${DESTINATIONS_URL}/${d.id}`] = (init, url) => {
      record('DELETE', url, init);
      return json({ success: true });
    };
  }
  const fetchMock = mockFetch(handlers);
  return { calls, fetchMock, handlers };
}

const rowOf = (name: string) => screen.getAllByText(name)[0]!.closest('tr') as HTMLElement;

async function renderPage() {
  const user = userEvent.setup();
  renderAt(<NotificationsPage />, '/admin/notifications');
  await screen.findByText('#free-finds');
  return user;
}

describe('NotificationsPage', () => {
  it('lists each destination with its range, pets, delay, figures and the reason it was turned off', async () => {
    fakeServer();
    await renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Notifications' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Destinations/ })).toBeTruthy();

    const first = rowOf('#finds-1m');
    expect(first.textContent).toContain('Discord webhook');
    expect(first.textContent).toContain('https://discord.com/api/webhooks/123/abcd…');
    expect(first.textContent).toContain('1M/s – 10M/s');
    expect(first.textContent).toContain('Every pet');
    expect(first.textContent).toContain('Delay: None');
    expect(first.textContent).toContain('Sent1,234');
    expect(first.textContent).toContain('Pending2');
    expect(first.textContent).toContain('Failed1');
    expect(first.textContent).toContain('Max age: 1 min (automatic); older finds are dropped');
    expect(first.textContent).toContain('Dropped (too old)3');
    expect(first.textContent).toContain('503 Service Unavailable');
    expect(first.textContent).toContain('p50 420 ms');
    expect(first.textContent).toContain('p99 1.8 s');
    expect(
      within(first).getByRole('switch', { name: '#finds-1m enabled' }).getAttribute('aria-checked'),
    ).toBe('true');

    const second = rowOf('#free-finds');
    expect(second.textContent).toContain('10M/s and up');
    expect(second.textContent).toContain('Dragon, Phoenix');
    expect(second.textContent).toContain('Delay: 5 min');
    expect(second.textContent).toContain('Max age: 15 min; older finds are posted marked late');
    expect(second.textContent).toContain('No posts yet');
    expect(within(second).getByRole('status').textContent).toBe('Disabled: Unknown Webhook (404)');
    expect(
      within(second).getByRole('switch', { name: '#free-finds enabled' }).getAttribute('aria-checked'),
    ).toBe('false');
  });

  it('says so when there is no destination yet, and when the list cannot be loaded', async () => {
    fakeServer({ destinations: [], deliveries: [] });
    renderAt(<NotificationsPage />, '/admin/notifications');
    expect(await screen.findByText(/No destinations yet/)).toBeTruthy();
    expect(await screen.findByText('No deliveries match.')).toBeTruthy();

    vi.unstubAllGlobals();
    mockFetch({ [DESTINATIONS_URL]: () => json({ error: 'Database unavailable' }, 500) });
    renderAt(<NotificationsPage />, '/admin/notifications');
    expect(await screen.findByText('Failed to load destinations: Database unavailable')).toBeTruthy();
  });

  it('adds a destination with the typed values read as values per second', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Add Destination' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Destination' });

    // Nothing typed: the schema's messages, and nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('URL is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), '#finds-10m');
    await user.type(within(dialog).getByLabelText('URL'), 'https://discord.com/api/webhooks/1/secret');
    await user.clear(within(dialog).getByLabelText('Minimum value'));
    await user.type(within(dialog).getByLabelText('Minimum value'), '10M');
    await user.type(within(dialog).getByLabelText('Pet names (optional)'), 'Dragon{Enter}Phoenix');
    await user.clear(within(dialog).getByLabelText('Delay (seconds)'));
    await user.type(within(dialog).getByLabelText('Delay (seconds)'), '60');
    expect(within(dialog).getByText(/Empty: automatic, 360 s for this delay/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Maximum age (seconds, optional)'), '30');
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    expect(
      await within(dialog).findByText(
        'The maximum age must be more than the delay (or every find would be too old)',
      ),
    ).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Maximum age (seconds, optional)'));
    await user.type(within(dialog).getByLabelText('Maximum age (seconds, optional)'), '600');
    await user.type(within(dialog).getByLabelText('Mention role id (optional)'), '987654321');
    await user.type(within(dialog).getByLabelText('Mention from value (optional)'), '50M');
    await user.click(within(dialog).getByRole('switch', { name: 'Include join data' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: DESTINATIONS_URL,
        search: '',
        body: {
          name: '#finds-10m',
          kind: 'discord',
          url: 'https://discord.com/api/webhooks/1/secret',
          minValue: 10_000_000,
          maxValue: null,
          petNames: ['Dragon', 'Phoenix'],
          delaySeconds: 60,
          includeJoinData: false,
          mentionRoleId: '987654321',
          mentionFromValue: 50_000_000,
          enabled: true,
          maxAgeSeconds: 600,
          lateMode: 'drop',
          alerts: false,
        },
      },
    ]);
    expect(toast).toHaveBeenCalledWith({ title: 'Destination added' });
  });

  it('marks a destination for operator alerts, and badges it in the list as taking no finds', async () => {
    const operator = destination({ id: 4, name: '#ops', alerts: true });
    const { calls } = fakeServer({ destinations: [destination(), gone, operator] });
    const user = await renderPage();
    const row = rowOf('#ops');
    expect(within(row).getByText('Operator alerts')).toBeTruthy();
    expect(row.textContent).toContain('None: operator alerts only');
    expect(row.textContent).not.toContain('Every pet');
    expect(within(rowOf('#finds-1m')).queryByText('Operator alerts')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add Destination' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Destination' });
    await user.type(within(dialog).getByLabelText('Name'), '#ops-2');
    await user.type(within(dialog).getByLabelText('URL'), 'https://discord.com/api/webhooks/2/secret');
    const alerts = within(dialog).getByRole('switch', { name: 'Operator alerts (not finds)' });
    expect(alerts.getAttribute('aria-checked')).toBe('false');
    await user.click(alerts);
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: '#ops-2', alerts: true });

    // Its Edit dialog shows the switch on, and Send test speaks of an alert.
    await user.click(within(rowOf('#ops')).getByRole('button', { name: 'Edit #ops' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit #ops' });
    expect(
      within(edit).getByRole('switch', { name: 'Operator alerts (not finds)' }).getAttribute('aria-checked'),
    ).toBe('true');
  });

  it("refuses a value that does not read and a maximum under the minimum, and shows the server's reason for a bad URL beside it", async () => {
    const { handlers } = fakeServer();
    const refusal =
      'The URL resolves to a private, loopback or link-local address, which the server reaches only with NOTIFY_ALLOW_PRIVATE=true';
    handlers[`POST ${DESTINATIONS_URL}`] = () => json({ error: `url: ${refusal}` }, 400);
    const user = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Add Destination' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Destination' });
    await user.type(within(dialog).getByLabelText('Name'), 'Bridge');
    await user.type(within(dialog).getByLabelText('URL'), 'https://discord.com/api/webhooks/1/secret');
    await user.clear(within(dialog).getByLabelText('Minimum value'));
    await user.type(within(dialog).getByLabelText('Minimum value'), '5M');
    await user.type(within(dialog).getByLabelText('Maximum value (optional)'), '1M');
    await user.type(within(dialog).getByLabelText('Mention from value (optional)'), 'lots');
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    expect(await within(dialog).findByText('The maximum value must be at least the minimum')).toBeTruthy();
    expect(within(dialog).getByText('A value per second, e.g. 1M, 2.5B or 1000000')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Mention from value (optional)'));

    await user.clear(within(dialog).getByLabelText('Maximum value (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    // The server's text, beside the URL it names (once: not again at the form's foot).
    await waitFor(() => expect(fieldMessage(dialog, 'URL')).toBe(refusal));
    expect(within(dialog).getAllByText(refusal)).toHaveLength(1);
    expect(within(dialog).getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Add Destination' })).toBeTruthy();
  });

  it('says before sending that the URL must use https, and that a private http address needs NOTIFY_ALLOW_PRIVATE', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Add Destination' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Destination' });
    await user.type(within(dialog).getByLabelText('Name'), 'Bridge');
    await user.type(within(dialog).getByLabelText('URL'), 'http://discord.com/api/webhooks/1/secret');
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'URL')).toBe(
        'The URL must use https (plain http only to a private address, with NOTIFY_ALLOW_PRIVATE=true on the server)',
      ),
    );
    // A Discord destination's host rule, in the server's words too.
    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'https://example.com/hook');
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'URL')).toBe(
        "A Discord webhook URL must be on Discord's hosts (discord.com, discordapp.com, ptb. or canary.)",
      ),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('lets plain http through to the server when the server allows private addresses', async () => {
    const { calls } = fakeServer({ urlPolicy: { allowHosts: [], allowPrivate: true } });
    const user = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Add Destination' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Destination' });
    await user.type(within(dialog).getByLabelText('Name'), 'Bridge');
    await user.click(within(dialog).getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: 'JSON webhook' }));
    await user.type(within(dialog).getByLabelText('URL'), 'http://10.0.0.5:8080/hook');
    await user.click(within(dialog).getByRole('button', { name: 'Add Destination' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
  });

  it('edits a destination without sending its URL when the field is left empty', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    await user.click(within(rowOf('#finds-1m')).getByRole('button', { name: 'Edit #finds-1m' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit #finds-1m' });
    expect(within(dialog).getByText(/Stored: https:\/\/discord.com\/api\/webhooks\/123\/abcd…/)).toBeTruthy();
    expect((within(dialog).getByLabelText('Minimum value') as HTMLInputElement).value).toBe('1000000');

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), '#finds-1m-10m');
    await user.click(within(dialog).getByRole('button', { name: 'Save Destination' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe(`${DESTINATIONS_URL}/1`);
    expect(patch?.body).toMatchObject({ name: '#finds-1m-10m', minValue: 1_000_000, maxValue: 10_000_000 });
    expect(patch?.body).not.toHaveProperty('url');
  });

  it('turns a destination on from its row', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    await user.click(screen.getByRole('switch', { name: '#free-finds enabled' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
        { method: 'PATCH', path: `${DESTINATIONS_URL}/2`, search: '', body: { enabled: true } },
      ]),
    );
  });

  it('asks before deleting a destination', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Delete #finds-1m' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this destination?' });
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete #finds-1m' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Destination' }));
    await expectToast('Destination deleted', '#finds-1m gets no more finds.');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${DESTINATIONS_URL}/1`]);
  });

  it("sends a test and toasts the destination's answer", async () => {
    const { handlers } = fakeServer();
    handlers[`POST ${DESTINATIONS_URL}/1/test`] = () => json({ ok: true, status: 204 });
    handlers[`POST ${DESTINATIONS_URL}/2/test`] = () =>
      json({ ok: false, status: 404, error: 'Unknown Webhook (404)' });
    const user = await renderPage();

    await user.click(screen.getByRole('button', { name: 'Send test to #finds-1m' }));
    await expectToast('Test sent', '#finds-1m accepted the sample find (HTTP 204).');

    await user.click(screen.getByRole('button', { name: 'Send test to #free-finds' }));
    await expectToast('Test failed', 'Unknown Webhook (404)', 'destructive');
  });

  it('filters deliveries by destination and state, and retries a failed one', async () => {
    const { calls } = fakeServer();
    const user = await renderPage();
    const panel = screen.getByRole('heading', { name: /Deliveries/ }).closest('.rounded-lg') as HTMLElement;
    await within(panel).findByText('Phoenix');
    expect(rowOf('Phoenix').textContent).toContain('$7M/s');
    expect(rowOf('Phoenix').textContent).toContain('502 Bad Gateway');
    expect(within(rowOf('Dragon')).queryByRole('button', { name: /Retry/ })).toBeNull();

    await user.click(within(panel).getByRole('combobox', { name: 'Filter by state' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(within(panel).queryByText('Dragon')).toBeNull());
    await user.click(within(panel).getByRole('combobox', { name: 'Filter by destination' }));
    await user.click(await screen.findByRole('option', { name: '#finds-1m' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET').at(-1)?.search).toBe(
        '?limit=100&destinationId=1&state=failed',
      ),
    );

    await user.click(within(rowOf('Phoenix')).getByRole('button', { name: 'Retry Phoenix to #finds-1m' }));
    await expectToast('Delivery queued again', 'It is sent with the next batch.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${DELIVERIES_URL}/51/retry`,
    ]);
  });
});
