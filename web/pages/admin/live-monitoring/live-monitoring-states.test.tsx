import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime.tsx';
import { FakeWebSocket, fakeSocketOptions } from '@/test/fake-websocket.ts';
import { EMPTY_DASHBOARD_STATS, json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { fleetCondition, fleetDown, systemHealth } from '@/test/server-frames.ts';
import type { EmergencyState } from '../../../../common/configuration.ts';
import { clockTime } from '../../../../common/order-texts.ts';
import { dashboard } from '../live-configuration/live-configuration.fixtures.ts';
import { useConfigurationEvents } from '../live-configuration/use-configuration-events.ts';
import { useAdminSession } from '../shared/admin-session.ts';
import { SERVER_UNREACHABLE_TEXT, ServerUnreachableBanner } from '../shell/server-unreachable-banner.tsx';
import { backfill, HOP_STATS, hop, networkStats, scanner } from './fleet-feed.fixtures.ts';
import LiveMonitoringPage, { CONNECTION_LOST_TEXT } from './live-monitoring.tsx';

/*
 * What the page shows when the fleet is not simply live: before its first figures, while the server
 * is down, under an emergency stop, and with Auto Refresh OFF.
 */

const CONFIGURATION_DASHBOARD = '/api/admin/configurations/dashboard-stats';
const SESSION_CHECK = '/api/admin/dashboard/stats';

const socket = () => FakeWebSocket.instances.at(-1)!;

/**
 * What the admin shell does around a screen that this page relies on: the banner when the server is
 * unreachable (its session check failed), and the handling of emergency_control.
 */
function ShellStandIn({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  useConfigurationEvents();
  return (
    <>
      {session.offline && <ServerUnreachableBanner />}
      {children}
    </>
  );
}

function renderPage() {
  return renderWithProviders(
    <RealtimeProvider options={{ ...fakeSocketOptions(), timing: { reconnectBaseMs: 10 } }}>
      <ShellStandIn>
        <LiveMonitoringPage />
      </ShellStandIn>
    </RealtimeProvider>,
    '/admin/live-monitoring',
  );
}

const RUNNING: EmergencyState = { stopped: false, reason: null, changedAt: null, changedBy: null };

/** The server answers the session check and the configuration dashboard with `state.emergency`. */
function serverUp(emergency: EmergencyState = RUNNING) {
  const state = { emergency };
  mockFetch({
    [SESSION_CHECK]: () => json(EMPTY_DASHBOARD_STATS),
    [CONFIGURATION_DASHBOARD]: () => json(dashboard({ emergency: state.emergency })),
  });
  return state;
}

const card = (name: string) => screen.getByRole('group', { name });
const figure = (name: string) => card(name).querySelector('.text-2xl')?.textContent;
const networkStatus = () => screen.getByText('Network Status').nextElementSibling?.textContent;
const heldNotice = () =>
  screen.queryAllByRole('status').find((s) => s.textContent?.startsWith('Updates paused'));
const feedLines = () =>
  within(screen.getByRole('list', { name: 'Live Events Feed' }))
    .queryAllByText(/^Bot \d+ /)
    .map((e) => e.textContent);

beforeEach(() => {
  FakeWebSocket.instances = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Live Monitoring before its first figures', () => {
  it('shows placeholders, not start values, until the first snapshot arrives', async () => {
    serverUp();
    renderPage();
    for (const name of [
      'Active Bots',
      'Network Health',
      'Scans/Min',
      'Pets Found',
      'Total Hops',
      'Failed Hops',
    ])
      expect(figure(name), name).toBe('—');
    expect(within(card('Active Bots')).getByText('of — total bots')).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Network health' })).toBeNull();
    expect(networkStatus()).toBe('—');
    expect(screen.queryByText('Improving')).toBeNull();

    socket().open();
    socket().receive(
      'fleet_backfill',
      backfill({
        networkStats: networkStats({ activeBots: 42, totalBots: 70, networkHealth: 60 }),
        hopStats: { ...HOP_STATS, totalHops: 1234, successfulHops: 1200, failedHops: 34 },
      }),
    );
    await waitFor(() => expect(figure('Active Bots')).toBe('42'));
    expect(figure('Network Health')).toBe('60%');
    // The Live Activity tab renders a moment later (a deferred value).
    await waitFor(() => expect(figure('Total Hops')).toBe('1,234'));
    expect(networkStatus()).toBe('Improving');
  });

  it('leaves a server outage to the shell: one banner, and still no made-up figure', async () => {
    mockFetch({
      [SESSION_CHECK]: () => {
        throw new TypeError('Failed to fetch');
      },
      [CONFIGURATION_DASHBOARD]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderPage();
    // The socket cannot connect either.
    socket().onclose?.({ code: 1006 });
    expect(await screen.findByText(SERVER_UNREACHABLE_TEXT)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    expect(screen.queryByText(CONNECTION_LOST_TEXT)).toBeNull();
    expect(figure('Network Health')).toBe('—');
    expect(figure('Active Bots')).toBe('—');
  });

  it('shows its own red banner when only the socket is down', async () => {
    serverUp();
    renderPage();
    socket().open();
    socket().onclose?.({ code: 1006 });
    expect(await screen.findByText(CONNECTION_LOST_TEXT)).toBeTruthy();
    expect(screen.queryByText(SERVER_UNREACHABLE_TEXT)).toBeNull();
  });
});

describe('Live Monitoring under an emergency stop', () => {
  it('says the network is stopped, since when, by whom and why, instead of a trend', async () => {
    serverUp({
      stopped: true,
      reason: 'Game update rolling out',
      changedAt: '2026-11-23T09:41:00.000Z',
      changedBy: 'admin (10.0.0.7)',
    });
    renderPage();
    socket().open();
    socket().receive(
      'fleet_backfill',
      backfill({ networkStats: networkStats({ activeBots: 0, totalBots: 70, networkHealth: 0 }) }),
    );
    expect(await screen.findByText('The bot network is stopped')).toBeTruthy();
    expect(screen.getByText(/by admin \(10\.0\.0\.7\)\. Reason: Game update rolling out\./)).toBeTruthy();
    expect(within(card('Network Health')).getByText('Stopped by an emergency stop')).toBeTruthy();
    expect(networkStatus()).toBe('Stopped');
    expect(screen.queryByText('Improving')).toBeNull();
  });

  it('shows no stop while the network runs, and a stop made elsewhere as soon as it is announced', async () => {
    const server = serverUp();
    renderPage();
    socket().open();
    socket().receive('fleet_backfill', backfill());
    await waitFor(() => expect(networkStatus()).toBe('Improving'));
    expect(screen.queryByText('The bot network is stopped')).toBeNull();

    server.emergency = {
      stopped: true,
      reason: 'Ban wave',
      changedAt: '2026-11-23T09:41:00.000Z',
      changedBy: 'admin (10.0.0.7)',
    };
    socket().receive('emergency_control', { action: 'EMERGENCY_STOP', reason: 'Ban wave', affectedBots: 70 });
    expect(await screen.findByText('The bot network is stopped')).toBeTruthy();
    expect(networkStatus()).toBe('Stopped');
  });
});

describe('Live Monitoring when the fleet is not live', () => {
  const banner = (name: string) => screen.queryByRole('alert', { name });
  afterEach(() => vi.useRealTimers());

  it('says how long no bot has reported and which was last, as the silence grows, until bots report', async () => {
    serverUp();
    renderPage();
    socket().open();
    const lastHeardAt = new Date(Date.now() - 125_000).toISOString();
    socket().receive('system_health', systemHealth({ fleet: fleetDown(lastHeardAt) }));
    const said = `last heard ${clockTime(lastHeardAt)} from ghost-07`;
    await waitFor(() =>
      expect(banner('The bot network is down')?.textContent).toContain(
        `No bot has reported for 2 min — ${said}`,
      ),
    );
    // A minute on, nothing new from the server: the banner counts on.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    await waitFor(() => expect(banner('The bot network is down')?.textContent).toContain('for 3 min'));
    vi.useRealTimers();

    socket().receive(
      'system_health',
      systemHealth({ fleet: fleetCondition({ state: 'degraded', heardBots: 40, heardPercent: 57 }) }),
    );
    await waitFor(() =>
      expect(banner('The bot network is degraded')?.textContent).toContain(
        'Only 40 of 70 bots reporting (57%)',
      ),
    );
    socket().receive('system_health', systemHealth({ fleet: fleetCondition() }));
    await waitFor(() => expect(banner('The bot network is degraded')).toBeNull());
    expect(banner('The bot network is down')).toBeNull();
  });

  it('shows No data, not Improving, when no hop falls in the windows', async () => {
    serverUp();
    renderPage();
    socket().open();
    socket().receive(
      'fleet_backfill',
      backfill({ hopStats: { ...HOP_STATS, successRate15m: null, successRate30m: null, trend: null } }),
    );
    await waitFor(() => expect(networkStatus()).toBe('No data'));
    expect(screen.queryByText('Improving')).toBeNull();
  });
});

describe('Live Monitoring with Auto Refresh OFF', () => {
  it('holds the view still and says so, then shows everything that came when turned back ON', async () => {
    serverUp();
    const user = userEvent.setup();
    renderPage();
    socket().open();
    socket().receive(
      'fleet_backfill',
      backfill({ cursor: 1, hops: [hop(1)], networkStats: networkStats({ activeBots: 42, totalBots: 70 }) }),
    );
    await waitFor(() => expect(feedLines()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: /Auto Refresh ON/ }));
    expect(heldNotice()?.textContent).toBe('Updates paused while Auto Refresh is OFF');
    socket().receive('server_hop', hop(2, { botId: '8' }));
    socket().receive('scanner_status', {
      scanners: [scanner('8')],
      networkStats: networkStats({ activeBots: 10, totalBots: 70 }),
    });
    await waitFor(() =>
      expect(heldNotice()?.textContent).toBe(
        'Updates paused while Auto Refresh is OFF · 1 new event not shown',
      ),
    );
    expect(feedLines()).toHaveLength(1);
    expect(figure('Active Bots')).toBe('42');

    await user.click(screen.getByRole('button', { name: /Auto Refresh OFF/ }));
    await waitFor(() => expect(feedLines()).toHaveLength(2));
    expect(feedLines()[0]).toBe('Bot 8 successfully hopped to new server (120ms)');
    expect(figure('Active Bots')).toBe('10');
    expect(heldNotice()).toBeUndefined();
  });
});
