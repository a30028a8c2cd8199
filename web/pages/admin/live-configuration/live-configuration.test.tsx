import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json } from '@/test/render.tsx';
import { bots, dashboard, profile, T } from './live-configuration.fixtures.ts';
import {
  expectToast,
  failPosts,
  getsOf,
  renderLiveConfiguration,
  resetBetweenTests,
  socket,
} from './live-configuration.test-utils.tsx';

vi.mock('@/lib/toast.ts', () => ({
  toast: vi.fn(() => ({ id: '1', dismiss: () => {} })),
  updateToast: vi.fn(() => true),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

const STOP_URL = 'POST /api/admin/configurations/emergency-stop';
const RESUME_URL = 'POST /api/admin/configurations/emergency-resume';
const card = (name: string) => screen.getByRole('group', { name });

resetBetweenTests();

describe('LiveConfigurationPage: header and overview', () => {
  it("shows the socket's real state and the four tabs", async () => {
    renderLiveConfiguration();
    expect(screen.getByRole('heading', { name: 'Live Configuration' })).toBeTruthy();
    expect(screen.getByText('Connecting')).toBeTruthy();
    socket().open();
    expect(await screen.findByText('Connected')).toBeTruthy();
    for (const tab of ['Overview', 'Parameters', 'Profiles', 'History']) {
      expect(await screen.findByRole('tab', { name: tab })).toBeTruthy();
    }
  });

  it('shows the figures, the profiles bots run and only the first 5 recent failures', async () => {
    const failures = Array.from({ length: 6 }, (_, i) => ({
      botId: `ghost-1${i}`,
      errorMessage: `refused ${i}`,
      timestamp: T,
    }));
    renderLiveConfiguration({
      dashboard: dashboard({
        configHealth: { ...dashboard().configHealth, recentFailures: failures },
      }),
    });
    await screen.findByRole('group', { name: 'Total Configurations' });
    expect(card('Total Configurations').textContent).toContain('70');
    expect(card('Total Configurations').textContent).toContain('64 active');
    expect(card('Bot Health').textContent).toContain('64/70');
    expect(card('Bot Health').textContent).toContain('91% of bots online');
    expect(card('Recent Changes').textContent).toContain('3');
    expect(card('Deployment Success').textContent).toContain('45/50');
    expect(card('Deployment Success').textContent).toContain('90% · 120 ms average response');
    expect(within(card('Active Profiles')).getByText('AGGRESSIVE')).toBeTruthy();
    expect(within(card('Active Profiles')).getByText('12 bots')).toBeTruthy();
    const failuresCard = card('Recent Failures');
    for (let i = 0; i < 5; i++) expect(within(failuresCard).getByText(`refused ${i}`)).toBeTruthy();
    expect(within(failuresCard).queryByText('refused 5')).toBeNull();
    expect(within(failuresCard).getByText('ghost-10')).toBeTruthy();
  });

  it('says so when the dashboard cannot be loaded', async () => {
    renderLiveConfiguration(
      {},
      { '/api/admin/configurations/dashboard-stats': () => json({ error: 'Database unavailable' }, 503) },
    );
    expect(
      await screen.findByText('Failed to load configuration dashboard. Please try refreshing the page.'),
    ).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Overview' })).toBeNull();
  });

  it('polls the dashboard every 15 s, configurations every 30 s and profiles every 60 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { fetchMock } = renderLiveConfiguration();
      await screen.findByRole('group', { name: 'Total Configurations' });
      const counts = () => ({
        dashboard: getsOf(fetchMock, '/api/admin/configurations/dashboard-stats'),
        configurations: getsOf(fetchMock, '/api/admin/configurations'),
        profiles: getsOf(fetchMock, '/api/admin/configuration-profiles'),
      });
      expect(counts()).toEqual({ dashboard: 1, configurations: 1, profiles: 1 });
      await vi.advanceTimersByTimeAsync(15_000);
      expect(counts()).toEqual({ dashboard: 2, configurations: 1, profiles: 1 });
      await vi.advanceTimersByTimeAsync(15_000);
      expect(counts()).toEqual({ dashboard: 3, configurations: 2, profiles: 1 });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(counts()).toEqual({ dashboard: 5, configurations: 3, profiles: 2 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('LiveConfigurationPage: emergency toggle', () => {
  const stopped = {
    stopped: true,
    reason: 'Game update rolling out',
    changedAt: '2026-11-23T11:30:00.000Z',
    changedBy: 'admin (10.0.0.7)',
  };

  it('asks for a reason, stops the network, says how many bots stopped and turns into Resume', async () => {
    const user = userEvent.setup();
    const state = { dashboard: dashboard() };
    const { sent } = renderLiveConfiguration(state, {
      [STOP_URL]: () => {
        state.dashboard = dashboard({ emergency: stopped });
        return json({ affectedBots: 7, emergency: stopped });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Emergency Stop' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop the whole bot network?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.type(await screen.findByLabelText('Reason (optional)'), 'Game update rolling out');
    await user.click(screen.getByRole('button', { name: 'Stop All Bots' }));

    await expectToast('Emergency Stop Activated', 'Stopped 7 bots');
    expect(sent).toEqual([
      { path: '/api/admin/configurations/emergency-stop', body: { reason: 'Game update rolling out' } },
    ]);
    expect(await screen.findByRole('button', { name: 'Emergency Resume' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Emergency Stop' })).toBeNull();
  });

  it('shows the red banner with reason and time while stopped, and resumes', async () => {
    const user = userEvent.setup();
    const running = { stopped: false, reason: '', changedAt: T, changedBy: 'admin (10.0.0.7)' };
    const state = { dashboard: dashboard({ emergency: stopped }) };
    const { sent } = renderLiveConfiguration(state, {
      [RESUME_URL]: () => {
        state.dashboard = dashboard({ emergency: running });
        return json({ affectedBots: 64, emergency: running });
      },
    });
    const banner = await screen.findByText('The bot network is stopped');
    const alert = banner.closest('[role="alert"]') as HTMLElement;
    expect(alert.textContent).toContain('Reason: Game update rolling out');
    expect(alert.textContent).toMatch(/since Nov 23, 2026/);

    await user.click(screen.getByRole('button', { name: 'Emergency Resume' }));
    await user.click(await screen.findByRole('button', { name: 'Resume Network' }));
    await expectToast('Emergency Resume Activated', 'Resumed 64 bots');
    expect(sent).toEqual([{ path: '/api/admin/configurations/emergency-resume', body: { reason: '' } }]);
    expect(await screen.findByRole('button', { name: 'Emergency Stop' })).toBeTruthy();
    expect(screen.queryByText('The bot network is stopped')).toBeNull();
  });

  it('says how many bots are still connected while stopped, not a share of bots online', async () => {
    renderLiveConfiguration({
      dashboard: dashboard({
        emergency: stopped,
        configHealth: { ...dashboard().configHealth, onlineBots: 70, totalBots: 70 },
      }),
    });
    await screen.findByText('The bot network is stopped');
    expect(card('Bot Health').textContent).toContain('70/70');
    expect(card('Bot Health').textContent).toContain('70 of 70 connected · scanning stopped');
    expect(card('Bot Health').textContent).not.toContain('of bots online');
  });

  it("says 'Emergency Stop Failed' with the server's message, or the spec's text when none came", async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderLiveConfiguration(
      {},
      { [STOP_URL]: () => json({ error: 'The network is already stopped' }, 409) },
    );
    await user.click(await screen.findByRole('button', { name: 'Emergency Stop' }));
    await user.click(await screen.findByRole('button', { name: 'Stop All Bots' }));
    await expectToast('Emergency Stop Failed', 'The network is already stopped', 'destructive');
    expect(screen.getByRole('button', { name: 'Emergency Stop' })).toBeTruthy();

    vi.mocked(toast).mockClear();
    failPosts(fetchMock);
    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.click(await screen.findByRole('button', { name: 'Stop All Bots' }));
    await expectToast('Emergency Stop Failed', 'Failed to execute emergency stop', 'destructive');
  });

  it("says 'Emergency Resume Failed' when resuming fails", async () => {
    const user = userEvent.setup();
    renderLiveConfiguration(
      { dashboard: dashboard({ emergency: stopped }) },
      { [RESUME_URL]: () => Promise.reject(new TypeError('Failed to fetch')) },
    );
    await user.click(await screen.findByRole('button', { name: 'Emergency Resume' }));
    await user.click(await screen.findByRole('button', { name: 'Resume Network' }));
    await expectToast('Emergency Resume Failed', 'Failed to execute emergency resume', 'destructive');
  });
});

describe('LiveConfigurationPage: socket events', () => {
  it('toasts a configuration pushed elsewhere with the number of bots, and refreshes', async () => {
    const { fetchMock } = renderLiveConfiguration();
    socket().open();
    await screen.findByRole('group', { name: 'Total Configurations' });
    const before = getsOf(fetchMock, '/api/admin/configurations');
    socket().receive('configuration_update', { targetedBots: 5, changeId: 'c-other', reason: '' });
    await expectToast('Configuration Updated', 'Configuration pushed to 5 bots');
    await waitFor(() => expect(getsOf(fetchMock, '/api/admin/configurations')).toBeGreaterThan(before));
  });

  it('toasts an emergency stop as destructive with its reason, a resume in the default style', async () => {
    renderLiveConfiguration();
    socket().open();
    await screen.findByRole('group', { name: 'Total Configurations' });
    socket().receive('emergency_control', {
      action: 'EMERGENCY_STOP',
      reason: 'Servers are banning bots',
      affectedBots: 60,
    });
    await expectToast('Emergency Stop', 'Servers are banning bots', 'destructive');
    socket().receive('emergency_control', {
      action: 'EMERGENCY_RESUME',
      reason: 'All clear',
      affectedBots: 60,
    });
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith({
        title: 'Emergency Resume',
        description: 'All clear',
        variant: 'default',
      }),
    );
  });

  it('toasts a rollback with its reason; progress only refreshes', async () => {
    const { fetchMock } = renderLiveConfiguration();
    socket().open();
    await screen.findByRole('group', { name: 'Total Configurations' });
    socket().receive('configuration_rollback', {
      reason: 'Too many failures',
      changeId: 'c-2',
      rollbackOf: 'c-1',
    });
    await expectToast('Configuration Rolled Back', 'Too many failures');
    vi.mocked(toast).mockClear();
    const before = getsOf(fetchMock, '/api/admin/configurations/history');
    socket().receive('configuration_progress', {
      changeId: 'c-2',
      counts: { pending: 0, applied: 3, failed: 0 },
      unanswered: 0,
    });
    await waitFor(() =>
      expect(getsOf(fetchMock, '/api/admin/configurations/history')).toBeGreaterThan(before),
    );
    expect(toast).not.toHaveBeenCalled();
  });

  it('does not toast its own stop a second time when the socket echoes it', async () => {
    const user = userEvent.setup();
    const emergency = { stopped: true, reason: 'x', changedAt: T, changedBy: 'admin (10.0.0.7)' };
    const state = { dashboard: dashboard() };
    renderLiveConfiguration(state, {
      [STOP_URL]: () => {
        state.dashboard = dashboard({ emergency });
        return json({ affectedBots: 3, emergency });
      },
    });
    socket().open();
    await user.click(await screen.findByRole('button', { name: 'Emergency Stop' }));
    await user.click(await screen.findByRole('button', { name: 'Stop All Bots' }));
    await screen.findByRole('button', { name: 'Emergency Resume' });
    socket().receive('emergency_control', { action: 'EMERGENCY_STOP', reason: 'x', affectedBots: 3 });
    // The echo refreshes the screen; the one toast is the answer's.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(vi.mocked(toast).mock.calls.map(([t]) => t.title)).toEqual(['Emergency Stop Activated']);
  });
});

describe('LiveConfigurationPage: counts of one', () => {
  it("says '1 bot', never '1 bots', in the overview, the profiles, the status list and the toasts", async () => {
    const user = userEvent.setup();
    const stopped = { stopped: true, reason: '', changedAt: T, changedBy: 'admin (10.0.0.7)' };
    renderLiveConfiguration(
      {
        dashboard: dashboard({
          configHealth: {
            ...dashboard().configHealth,
            activeProfiles: [{ profileId: 'p-stealth', profileName: 'STEALTH', botCount: 1 }],
          },
          dashboardStats: {
            ...dashboard().dashboardStats,
            topUsedProfiles: [{ profileName: 'STEALTH', usageCount: 1 }],
          },
        }),
        configurations: bots(1),
        profiles: [profile('STEALTH', { usageCount: 1 })],
      },
      { [STOP_URL]: () => json({ affectedBots: 1, emergency: stopped }) },
    );
    socket().open();
    expect(
      await within(await screen.findByRole('group', { name: 'Active Profiles' })).findByText('1 bot'),
    ).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Parameters' }));
    expect(await screen.findByText('Showing 1 of 1 bot configuration')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /^ghost-01\b/ }));
    await user.click(screen.getByRole('tab', { name: 'Profiles' }));
    expect(await screen.findByText('1 bot selected on the Parameters tab')).toBeTruthy();
    expect(screen.getByText('Applied once')).toBeTruthy();
    expect(screen.getByText('1 use')).toBeTruthy();

    socket().receive('configuration_update', { targetedBots: 1, changeId: 'c-other', reason: '' });
    await expectToast('Configuration Updated', 'Configuration pushed to 1 bot');
    await user.click(screen.getByRole('button', { name: 'Emergency Stop' }));
    await user.click(await screen.findByRole('button', { name: 'Stop All Bots' }));
    await expectToast('Emergency Stop Activated', 'Stopped 1 bot');
  });
});
