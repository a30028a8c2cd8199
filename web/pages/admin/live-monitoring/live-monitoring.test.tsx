import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime.tsx';
import { FakeWebSocket, fakeSocketOptions } from '@/test/fake-websocket.ts';
import { json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { liveDataOf, type PetDiscovery } from '../../../../common/fleet.ts';
import { backfill, hop, scanner } from './fleet-feed.fixtures.ts';
import { INITIAL_NETWORK_STATS } from './fleet-feed.ts';
import LiveMonitoringPage, { CONNECTION_LOST_TEXT } from './live-monitoring.tsx';

const T = '2026-11-23T10:00:00.000Z';

function pet(seq: number, over: Partial<PetDiscovery> = {}): PetDiscovery {
  return {
    id: `pet-${seq}`,
    seq,
    name: 'Dragon',
    type: 'Legendary',
    value: '$2M/s',
    numericValue: 2_000_000,
    count: 1,
    timestamp: T,
    placeid: '200',
    jobid: '0123456789abcdef-rest-of-the-id',
    scannerId: 'scanner-7',
    botId: '7',
    ...over,
  };
}

const socket = () => FakeWebSocket.instances.at(-1)!;

function renderPage() {
  return renderWithProviders(
    <RealtimeProvider options={{ ...fakeSocketOptions(), timing: { reconnectBaseMs: 10 } }}>
      <LiveMonitoringPage />
    </RealtimeProvider>,
  );
}

beforeEach(() => {
  FakeWebSocket.instances = [];
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The lines of the Live Activity tab's Live Events Feed card, newest first. */
const feedLines = () => {
  const list = screen.queryByRole('list', { name: 'Live Events Feed' });
  return list
    ? within(list)
        .queryAllByText(/^Bot \d+ /)
        .map((e) => e.textContent)
    : [];
};

describe('LiveMonitoringPage', () => {
  it('shows the backfill, then live events on top, with the spec texts and the stat cards', async () => {
    renderPage();
    socket().open();
    socket().receive(
      'fleet_backfill',
      backfill({
        cursor: 2,
        hops: [hop(1), hop(2, { success: false, errorMessage: null, botId: '9' })],
        networkStats: { ...INITIAL_NETWORK_STATS, activeBots: 42, totalBots: 70, networkHealth: 60 },
      }),
    );
    await waitFor(() =>
      expect(feedLines()).toEqual([
        'Bot 9 failed to hop: Unknown error',
        'Bot 7 successfully hopped to new server (120ms)',
      ]),
    );
    expect(
      within(screen.getByRole('group', { name: 'Active Bots' })).getByText('of 70 total bots'),
    ).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Network health' }).getAttribute('aria-valuenow')).toBe(
      '60',
    );

    socket().receive('server_hop', hop(3, { latencyMs: 55 }));
    await waitFor(() => expect(feedLines()[0]).toBe('Bot 7 successfully hopped to new server (55ms)'));
    expect(feedLines()).toHaveLength(3);
  });

  it('asks for scanner_status and system_health on connect while Auto Refresh is ON, not when OFF', async () => {
    const user = userEvent.setup();
    renderPage();
    socket().open();
    const asked = () =>
      socket()
        .sent.map((f) => f.type)
        .filter((t) => t !== 'heartbeat');
    await waitFor(() => expect(asked()).toEqual(['scanner_status', 'system_health']));
    await user.click(screen.getByRole('button', { name: /Auto Refresh ON/ }));
    expect(screen.getByRole('button', { name: /Auto Refresh OFF/ })).toBeTruthy();
    socket().sent.length = 0;
    // Reconnected with auto refresh off: nothing asked.
    socket().onclose?.({ code: 4000 });
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    socket().open();
    await new Promise((r) => setTimeout(r, 20));
    expect(asked()).toEqual([]);
  });

  it('shows the red banner while the socket is down, resumes after the last seq and shows each event once', async () => {
    renderPage();
    socket().open();
    socket().receive('fleet_backfill', backfill({ cursor: 2, hops: [hop(1), hop(2)] }));
    socket().receive('server_hop', hop(3));
    await waitFor(() => expect(feedLines()).toHaveLength(3));
    expect(screen.queryByText(CONNECTION_LOST_TEXT)).toBeNull();

    socket().onclose?.({ code: 1006 });
    expect(await screen.findByText(CONNECTION_LOST_TEXT)).toBeTruthy();

    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    expect(socket().url).toBe('ws://test/ws?since=3');
    socket().open();
    await waitFor(() => expect(screen.queryByText(CONNECTION_LOST_TEXT)).toBeNull());
    // An overlapping resume: 3 again (already shown), then what was missed.
    socket().receive('server_hop', hop(3));
    socket().receive('server_hop', hop(4, { botId: '8' }));
    socket().receive('live_data', liveDataOf(pet(5)));
    await waitFor(() => expect(feedLines()).toHaveLength(5));
    expect(feedLines().slice(0, 2)).toEqual([
      'Bot 7 found Dragon ($2M/s)',
      'Bot 8 successfully hopped to new server (120ms)',
    ]);
  });

  it('replaces what it shows when the server sends a reset backfill', async () => {
    renderPage();
    socket().open();
    socket().receive('fleet_backfill', backfill({ cursor: 2, hops: [hop(1), hop(2)] }));
    await waitFor(() => expect(feedLines()).toHaveLength(2));
    socket().receive(
      'fleet_backfill',
      backfill({ reset: true, cursor: 900, hops: [hop(900, { botId: '3' })] }),
    );
    await waitFor(() => expect(feedLines()).toEqual(['Bot 3 successfully hopped to new server (120ms)']));
  });

  it('pauses the lists while counting new events, and shows them on resume', async () => {
    const user = userEvent.setup();
    renderPage();
    socket().open();
    socket().receive('fleet_backfill', backfill({ cursor: 1, hops: [hop(1)] }));
    await waitFor(() => expect(feedLines()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Pause Feed' }));
    socket().receive('server_hop', hop(2));
    socket().receive('server_hop', hop(3));
    expect(await screen.findByRole('button', { name: 'Resume (2 new events)' })).toBeTruthy();
    expect(feedLines()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Resume (2 new events)' }));
    expect(feedLines()).toHaveLength(3);
  });

  it('Scanner Status: cards with every field, the bot filter, and the empty text', async () => {
    const user = userEvent.setup();
    renderPage();
    socket().open();
    await user.click(screen.getByRole('tab', { name: 'Scanner Status' }));
    expect(screen.getByText('No scanner data available')).toBeTruthy();
    socket().receive('scanner_status', {
      scanners: [scanner('1'), scanner('2', { status: 'error' })],
      networkStats: INITIAL_NETWORK_STATS,
    });
    const card = await screen.findByRole('group', { name: 'Bot 1' });
    for (const text of ['active', 'Scans/Min', '12', 'Pets Found', 'Uptime', '99%', 'Hop Rate', '90%']) {
      expect(within(card).getByText(text)).toBeTruthy();
    }
    expect(within(card).getByText('fedcba9876543210')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Bot 2' })).getByText('error').className).toContain(
      'bg-red-600',
    );

    await user.click(screen.getByRole('combobox', { name: 'Filter by bot' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Bots',
      'Bot 1 - active',
      'Bot 2 - error',
    ]);
    await user.click(screen.getByRole('option', { name: 'Bot 2 - error' }));
    expect(screen.queryByRole('group', { name: 'Bot 1' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Bot 2' })).toBeTruthy();
  });

  it('Scanner Status: cards and bot options in natural id order (ghost-2 before ghost-10)', async () => {
    const user = userEvent.setup();
    renderPage();
    socket().open();
    await user.click(screen.getByRole('tab', { name: 'Scanner Status' }));
    // The server lists bots in the order they joined.
    socket().receive('scanner_status', {
      scanners: ['ghost-05', 'ghost-42', 'ghost-29', 'ghost-10', 'ghost-2'].map((id) => scanner(id)),
      networkStats: INITIAL_NETWORK_STATS,
    });
    const order = ['ghost-2', 'ghost-05', 'ghost-10', 'ghost-29', 'ghost-42'];
    await waitFor(() =>
      expect(
        screen.getAllByRole('group', { name: /^Bot ghost-/ }).map((c) => c.getAttribute('aria-label')),
      ).toEqual(order.map((id) => `Bot ${id}`)),
    );
    await user.click(screen.getByRole('combobox', { name: 'Filter by bot' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Bots',
      ...order.map((id) => `Bot ${id} - active`),
    ]);
  });

  it('Scanner Status: Remove asks first, removes the bot, toasts, and the card goes with the next list', async () => {
    const fetchMock = mockFetch({
      'DELETE /api/admin/fleet/bots/ghost-1': () =>
        json({ success: true, ghostId: 'ghost-1', releasedServers: 2 }),
    });
    const user = userEvent.setup();
    renderPage();
    socket().open();
    await user.click(screen.getByRole('tab', { name: 'Scanner Status' }));
    socket().receive('scanner_status', {
      scanners: [scanner('ghost-1'), scanner('ghost-2')],
      networkStats: INITIAL_NETWORK_STATS,
    });
    const card = await screen.findByRole('group', { name: 'Bot ghost-1' });
    await user.click(within(card).getByRole('button', { name: 'Remove bot ghost-1' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Remove bot ghost-1?')).toBeTruthy();
    // Cancel removes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/fleet/bots/'), expect.anything());

    await user.click(within(card).getByRole('button', { name: 'Remove bot ghost-1' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove Bot' }),
    );
    expect(await screen.findByText('Bot removed')).toBeTruthy();
    expect(screen.getByText('Bot ghost-1 left the fleet and 2 pool servers went back.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/fleet/bots/ghost-1',
      expect.objectContaining({ method: 'DELETE' }),
    );
    // The server tells every dashboard: the card goes.
    socket().receive('scanner_status', {
      scanners: [scanner('ghost-2')],
      networkStats: INITIAL_NETWORK_STATS,
    });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Bot ghost-1' })).toBeNull());
    expect(screen.getByRole('group', { name: 'Bot ghost-2' })).toBeTruthy();
  });

  it("Scanner Status: a refused removal toasts the server's reason and keeps the card", async () => {
    mockFetch({ 'DELETE /api/admin/fleet/bots/ghost-1': () => json({ error: 'Unknown bot: ghost-1' }, 404) });
    const user = userEvent.setup();
    renderPage();
    socket().open();
    await user.click(screen.getByRole('tab', { name: 'Scanner Status' }));
    socket().receive('scanner_status', {
      scanners: [scanner('ghost-1')],
      networkStats: INITIAL_NETWORK_STATS,
    });
    const card = await screen.findByRole('group', { name: 'Bot ghost-1' });
    await user.click(within(card).getByRole('button', { name: 'Remove bot ghost-1' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove Bot' }),
    );
    expect(await screen.findByText('Removal failed')).toBeTruthy();
    expect(screen.getByText('Unknown bot: ghost-1')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Bot ghost-1' })).toBeTruthy();
  });

  it('Pet Discoveries: badge colours, search, value filter and the empty texts', async () => {
    const user = userEvent.setup();
    renderPage();
    socket().open();
    await user.click(screen.getByRole('tab', { name: 'Pet Discoveries' }));
    expect(screen.getByText('No pet discoveries found')).toBeTruthy();
    expect(screen.queryByText('Try adjusting your search filters')).toBeNull();
    socket().receive(
      'fleet_backfill',
      backfill({
        cursor: 3,
        discoveries: [
          pet(1, { name: 'Cat', type: 'Common', value: '$600K/s', numericValue: 600_000 }),
          pet(2, { name: 'Dragon', value: '$2M/s', numericValue: 2_000_000 }),
          pet(3, { name: 'Phoenix', type: 'Mythic', value: '$7.5M/s', numericValue: 7_500_000 }),
        ],
      }),
    );
    await waitFor(() => expect(screen.getByText('$7.5M/s')).toBeTruthy());
    expect(screen.getByText('$7.5M/s').className).toContain('bg-purple-600');
    expect(screen.getByText('$2M/s').className).toContain('bg-blue-600');
    expect(screen.getByText('$600K/s').className).not.toMatch(/bg-(blue|purple)/);
    const phoenix = screen.getByRole('group', { name: 'Phoenix' });
    expect(within(phoenix).getByText('0123456789abcdef')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search pets by name or type' }), 'myth');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Dragon' })).toBeNull());
    expect(screen.getByRole('group', { name: 'Phoenix' })).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Search pets by name or type' }));

    await user.click(screen.getByRole('combobox', { name: 'Filter by value' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Values',
      '$500K+',
      '$1M+',
      '$5M+',
    ]);
    await user.click(screen.getByRole('option', { name: '$1M+' }));
    expect(screen.queryByRole('group', { name: 'Cat' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Dragon' })).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search pets by name or type' }), 'zebra');
    expect(await screen.findByText('No pet discoveries found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search filters')).toBeTruthy();
  });

  it('Performance: the three cards, API Status always Operational', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('tab', { name: 'Performance' }));
    for (const title of ['Scanner Performance', 'Discovery Trends', 'Connection Status']) {
      expect(screen.getByRole('group', { name: title })).toBeTruthy();
    }
    const connection = screen.getByRole('group', { name: 'Connection Status' });
    expect(within(connection).getByText('Operational')).toBeTruthy();
    expect(within(connection).getByText('Disconnected')).toBeTruthy();
    socket().open();
    expect(await within(connection).findByText('Connected')).toBeTruthy();
  });

  it('Export Data downloads the spec JSON: timestamp, stats, scanners, the filtered discoveries, the first 50 live events', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:test');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    try {
      renderPage();
      socket().open();
      const hops = Array.from({ length: 60 }, (_, i) => hop(i + 1));
      socket().receive(
        'fleet_backfill',
        backfill({
          cursor: 62,
          hops,
          discoveries: [
            pet(61, { name: 'Cat', numericValue: 600_000 }),
            pet(62, { name: 'Phoenix', numericValue: 7_500_000 }),
          ],
          scanners: [scanner('1')],
        }),
      );
      await waitFor(() => expect(feedLines().length).toBeGreaterThan(0));
      await user.click(screen.getByRole('tab', { name: 'Pet Discoveries' }));
      await user.click(screen.getByRole('combobox', { name: 'Filter by value' }));
      await user.click(await screen.findByRole('option', { name: '$5M+' }));
      await user.click(screen.getByRole('button', { name: 'Export Data' }));

      expect(clicked).toHaveLength(1);
      expect(clicked[0]).toMatch(/^live-monitoring-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await createObjectURL.mock.calls[0]![0].text());
      expect(Object.keys(data)).toEqual([
        'timestamp',
        'networkStats',
        'scanners',
        'petDiscoveries',
        'liveEvents',
      ]);
      expect(data.petDiscoveries.map((d: PetDiscovery) => d.name)).toEqual(['Phoenix']);
      expect(data.scanners).toHaveLength(1);
      expect(data.liveEvents).toHaveLength(50);
      expect(data.liveEvents[0].seq).toBe(62);
      expect(data.networkStats.totalBots).toBe(70);
    } finally {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });
});
