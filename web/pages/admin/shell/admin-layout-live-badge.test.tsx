import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '@/test/fake-websocket.ts';
import { EMPTY_DASHBOARD_STATS, json, mockFetch } from '@/test/render.tsx';
import { fleetCondition, fleetDown, systemHealth } from '@/test/server-frames.ts';
import { dashboard } from '../live-configuration/live-configuration.fixtures.ts';
import { renderAt } from '../shared/test-utils.tsx';
import AdminLayout from './admin-layout.tsx';

// The shell's own provider, on a socket the test feeds.
vi.mock('@/lib/realtime.tsx', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/realtime.tsx')>();
  const { fakeSocketOptions: options } = await import('@/test/fake-websocket.ts');
  return {
    ...real,
    RealtimeProvider: ({ children }: { children: ReactNode }) => (
      <real.RealtimeProvider options={options()}>{children}</real.RealtimeProvider>
    ),
  };
});

const socket = () => FakeWebSocket.instances.at(-1)!;

beforeEach(() => {
  FakeWebSocket.instances = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderShell() {
  mockFetch({
    '/api/admin/dashboard/stats': () => json(EMPTY_DASHBOARD_STATS),
    '/api/admin/configurations/dashboard-stats': () => json(dashboard()),
  });
  renderAt(<AdminLayout />, '/admin/dashboard', '/admin/*', <Route path="dashboard" element={<p>Home</p>} />);
}

const liveMonitoringLink = () =>
  within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: /Live Monitoring/ });
const badgeText = () => within(liveMonitoringLink()).getByTestId('fleet-state-badge').textContent;

describe("the sidebar's Live Monitoring badge", () => {
  it("says the fleet's state: LIVE only while live, DOWN once it falls silent, LIVE again when it reports", async () => {
    renderShell();
    expect(await screen.findByText('Home')).toBeTruthy();
    socket().open();
    socket().receive('system_health', systemHealth({ fleet: fleetCondition() }));
    await waitFor(() => expect(badgeText()).toBe('LIVE'));

    const lastHeardAt = new Date(Date.now() - 125_000).toISOString();
    socket().receive('system_health', systemHealth({ fleet: fleetDown(lastHeardAt) }));
    await waitFor(() => expect(badgeText()).toBe('DOWN'));
    expect(within(liveMonitoringLink()).queryByText('LIVE')).toBeNull();

    socket().receive(
      'system_health',
      systemHealth({ fleet: fleetCondition({ state: 'degraded', heardBots: 40, heardPercent: 57 }) }),
    );
    await waitFor(() => expect(badgeText()).toBe('DEGRADED'));
    socket().receive('system_health', systemHealth({ fleet: fleetCondition() }));
    await waitFor(() => expect(badgeText()).toBe('LIVE'));
  });

  it('says STOPPED under an emergency stop, and asks for the state again when a stop is announced', async () => {
    renderShell();
    expect(await screen.findByText('Home')).toBeTruthy();
    socket().open();
    socket().receive('system_health', systemHealth({ fleet: fleetCondition() }));
    await waitFor(() => expect(badgeText()).toBe('LIVE'));

    const asked = socket().sent.filter((f) => f.type === 'system_health').length;
    socket().receive('emergency_control', {
      action: 'EMERGENCY_STOP',
      reason: 'Game update',
      affectedBots: 70,
    });
    await waitFor(() =>
      expect(socket().sent.filter((f) => f.type === 'system_health').length).toBe(asked + 1),
    );
    socket().receive(
      'system_health',
      systemHealth({
        fleet: fleetCondition({
          state: 'stopped',
          stoppedBy: 'admin (10.0.0.7)',
          stoppedReason: 'Game update',
        }),
      }),
    );
    await waitFor(() => expect(badgeText()).toBe('STOPPED'));
  });

  it('does not pulse LIVE before the state is known, nor once the socket is lost', async () => {
    renderShell();
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(liveMonitoringLink().querySelector('.animate-pulse')).toBeNull();
    socket().open();
    socket().receive('system_health', systemHealth({ fleet: fleetCondition() }));
    await waitFor(() => expect(liveMonitoringLink().querySelector('.animate-pulse')).toBeTruthy());
    socket().onclose?.({ code: 1006 });
    await waitFor(() => expect(liveMonitoringLink().querySelector('.animate-pulse')).toBeNull());
  });
});
