import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_DASHBOARD_STATS, json, mockFetch } from '@/test/render.tsx';
import type { EmergencyState } from '../../../../common/configuration.ts';
import { dashboard } from '../live-configuration/live-configuration.fixtures.ts';
import { renderAt } from '../shared/test-utils.tsx';
import AdminLayout from './admin-layout.tsx';

// The shell's socket is another suite's business: without a provider, useRealtime gives its inert,
// disconnected default.
vi.mock('@/lib/realtime.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/realtime.tsx')>()),
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderShell(emergency: EmergencyState) {
  mockFetch({
    '/api/admin/dashboard/stats': () => json(EMPTY_DASHBOARD_STATS),
    '/api/admin/configurations/dashboard-stats': () => json(dashboard({ emergency })),
  });
  renderAt(<AdminLayout />, '/admin/dashboard', '/admin/*', <Route path="dashboard" element={<p>Home</p>} />);
}

const liveMonitoringLink = () =>
  within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: /Live Monitoring/ });

describe("the sidebar's Live Monitoring badge", () => {
  it('says STOPPED, not LIVE, while the network is under an emergency stop', async () => {
    renderShell({
      stopped: true,
      reason: 'Game update',
      changedAt: '2026-11-23T09:41:00.000Z',
      changedBy: 'admin (10.0.0.7)',
    });
    expect(await screen.findByText('Home')).toBeTruthy();
    await waitFor(() => expect(within(liveMonitoringLink()).getByText('STOPPED')).toBeTruthy());
    expect(within(liveMonitoringLink()).queryByText('LIVE')).toBeNull();
  });

  it('says LIVE while the network runs', async () => {
    renderShell({ stopped: false, reason: null, changedAt: null, changedBy: null });
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(within(liveMonitoringLink()).getByText('LIVE')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(liveMonitoringLink()).queryByText('STOPPED')).toBeNull();
  });
});
