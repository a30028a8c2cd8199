import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeApi } from '@/lib/realtime.tsx';
import { json, mockFetch } from '@/test/render.tsx';
import { fleetDown, systemHealth } from '@/test/server-frames.ts';
import { clockTime } from '../../../../common/order-texts.ts';
import { renderAt } from '../shared/test-utils.tsx';
import DashboardPage from './dashboard.tsx';

const realtime = {
  status: 'disconnected' as RealtimeApi['status'],
  systemHealth: null as RealtimeApi['systemHealth'],
  serverTimeOffset: 0,
  reconnect: vi.fn(),
  requestSystemHealth: vi.fn(),
};
vi.mock('@/lib/realtime.tsx', () => ({ useRealtime: () => realtime }));

const STATS_URL = '/api/admin/dashboard/stats';
const STATS = {
  timestamp: '2026-11-22T10:00:00.000Z',
  stats: {
    totalKeys: 10,
    activeKeys: 6,
    expiredKeys: 1,
    revokedKeys: 3,
    totalBindings: 8,
    activeBindings: 2,
    todayUsage: 5,
    weeklyUsage: 40,
    monthlyUsage: 120,
  },
  sales: {
    today: { orders: 0, amount: 0 },
    week: { orders: 0, amount: 0 },
    currency: 'USD',
    connected: false,
  },
};

beforeEach(() => {
  realtime.status = 'disconnected';
  realtime.systemHealth = null;
  realtime.reconnect.mockClear();
  realtime.requestSystemHealth.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DashboardPage', () => {
  it('shows sales today and this week once payments are connected, and no sales cards without them', async () => {
    mockFetch({
      [STATS_URL]: () =>
        json({
          ...STATS,
          sales: {
            today: { orders: 2, amount: 80.5 },
            week: { orders: 5, amount: 200 },
            currency: 'USD',
            connected: true,
          },
        }),
    });
    const { unmount } = renderAt(<DashboardPage />, '/admin/dashboard');
    const today = (await screen.findByRole('group', { name: 'Sales Today' })).textContent;
    expect(today).toContain('$80.50');
    expect(today).toContain('2 paid orders since midnight UTC');
    const week = screen.getByRole('group', { name: 'Sales This Week' }).textContent;
    expect(week).toContain('$200');
    expect(week).toContain('5 paid orders in 7 days');
    unmount();
    vi.unstubAllGlobals();

    mockFetch({ [STATS_URL]: () => json(STATS) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    await screen.findByRole('group', { name: 'Total Keys' });
    expect(screen.queryByRole('group', { name: 'Sales Today' })).toBeNull();
  });

  it('shows every stat card and both health bars', async () => {
    mockFetch({ [STATS_URL]: () => json(STATS) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    const card = async (name: string) => (await screen.findByRole('group', { name })).textContent;
    expect(await card('Total Keys')).toContain('10');
    expect(await card('Revoked Keys')).toContain('3');
    expect(await card('This Month')).toContain('120');
    expect(screen.getByText('6 of 10 keys active')).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: 'License Key Health' }).getAttribute('aria-valuenow'),
    ).toBe('60');
    expect(
      screen.getByRole('progressbar', { name: 'Hardware Binding Utilization' }).getAttribute('aria-valuenow'),
    ).toBe('25');
    const hrefs = ['Generate Key', 'Manage Keys', 'Hardware Bindings', 'Security Logs'].map((name) =>
      screen.getByRole('link', { name: new RegExp(name) }).getAttribute('href'),
    );
    expect(hrefs).toEqual([
      '/admin/license-keys',
      '/admin/license-keys',
      '/admin/hardware-bindings',
      '/admin/security',
    ]);
  });

  it('says the statistics failed to load', async () => {
    mockFetch({ [STATS_URL]: () => json({ error: 'boom' }, 500) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    expect(
      await screen.findByText('Failed to load dashboard statistics. Please try refreshing the page.'),
    ).toBeTruthy();
  });

  it("reads 'Real-time data unavailable' offline, and Refresh Status reconnects", async () => {
    mockFetch({ [STATS_URL]: () => json(STATS) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    expect(screen.getByText('Real-time data unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh Status' }));
    expect(realtime.reconnect).toHaveBeenCalled();
  });

  it("says the scanner fleet's state and why: down since the last bot was heard, unknown offline", () => {
    mockFetch({ [STATS_URL]: () => json(STATS) });
    const { unmount } = renderAt(<DashboardPage />, '/admin/dashboard');
    const fleetCard = () => screen.getByRole('group', { name: 'Scanner Fleet' }).textContent;
    expect(fleetCard()).toContain('UNKNOWN');
    unmount();

    const lastHeardAt = new Date(Date.now() - 125_000).toISOString();
    realtime.status = 'connected';
    realtime.systemHealth = systemHealth({ fleet: fleetDown(lastHeardAt) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    expect(fleetCard()).toContain('DOWN');
    expect(fleetCard()).toContain(
      `No bot has reported for 2 min — last heard ${clockTime(lastHeardAt)} from ghost-07`,
    );
    expect(screen.getByRole('link', { name: 'Open Live Monitoring' }).getAttribute('href')).toBe(
      '/admin/live-monitoring',
    );
  });

  it('shows the client count and status when connected, and Refresh Status asks for health', () => {
    realtime.status = 'connected';
    realtime.systemHealth = {
      status: 'healthy',
      connectedClients: 4,
      healthScore: 90,
      networkHealth: 90,
      totalBots: 70,
      activeBots: 60,
      fleet: null,
    };
    mockFetch({ [STATS_URL]: () => json(STATS) });
    renderAt(<DashboardPage />, '/admin/dashboard');
    expect(screen.getByText('4 clients connected')).toBeTruthy();
    expect(screen.getByText('System status: healthy')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh Status' }));
    expect(realtime.requestSystemHealth).toHaveBeenCalled();
  });
});
