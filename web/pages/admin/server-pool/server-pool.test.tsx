import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import type { ServerPoolStats } from '../../../../common/server-pool.ts';
import { renderAt } from '../shared/test-utils.tsx';
import ServerPoolPage from './server-pool.tsx';

const STATS_URL = '/api/server-pool/stats';

function stats(available: number, assigned: number, deleted: number, extra: Partial<ServerPoolStats> = {}) {
  return {
    stats: {
      // As the server counts: the total is the servers not deleted.
      total: available + assigned,
      byStatus: { available, assigned, deleted },
      activeBots: assigned,
      quarantined: [],
      flaggedBots: [],
      ...extra,
    },
  };
}

function renderPage(body: unknown, status = 200) {
  const fetchMock = mockFetch({ [STATS_URL]: () => json(body, status) });
  renderAt(<ServerPoolPage />, '/admin/server-pool');
  return fetchMock;
}

const card = async (name: string) => (await screen.findByRole('group', { name })).textContent;
const badge = () => screen.getByTestId('availability-badge');
const isDestructive = (element: HTMLElement) => element.className.includes('bg-destructive');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ServerPoolPage', () => {
  it('shows the four cards, both bars and the status summary', async () => {
    renderPage(stats(95, 5, 2));
    expect(screen.getByRole('heading', { name: 'Server Pool Monitor' })).toBeTruthy();
    expect(await card('Total Servers')).toContain('100');
    expect(await card('Available Servers')).toContain('95');
    expect(await card('Active Bots')).toContain('5');
    expect(await card('Deleted Servers')).toContain('2');
    expect(screen.getByRole('progressbar', { name: 'Pool Availability' }).getAttribute('aria-valuenow')).toBe(
      '95',
    );
    expect(screen.getByText('5/100 assigned')).toBeTruthy();
    expect(screen.getByText('5 bots scanning')).toBeTruthy();
    expect(screen.getByText('95 available servers (ready for Ghost_ID assignments)')).toBeTruthy();
    expect(screen.getByText('5 active bots scanning (unique Ghost_IDs, with servers assigned)')).toBeTruthy();
    expect(screen.getByText('2 deleted servers (removed due to errors)')).toBeTruthy();
    expect(screen.queryByText('Low Pool Availability!')).toBeNull();
  });

  it('keeps the availability badge normal only above 90%', async () => {
    renderPage(stats(91, 9, 0));
    await card('Total Servers');
    expect(badge().textContent).toBe('91%');
    expect(isDestructive(badge())).toBe(false);
  });

  it('turns the availability badge destructive at exactly 90%, without the low warning', async () => {
    renderPage(stats(90, 10, 5));
    await card('Total Servers');
    expect(badge().textContent).toBe('90%');
    expect(isDestructive(badge())).toBe(true);
    expect(screen.queryByText('Low Pool Availability!')).toBeNull();
  });

  it("warns 'Low Pool Availability!' below 50% but not at 50%", async () => {
    renderPage(stats(49, 51, 50));
    expect(await screen.findByText('Low Pool Availability!')).toBeTruthy();
    expect(screen.getByText('Only 49 of 100 servers are available for Ghost_ID assignments.')).toBeTruthy();
  });

  it('has no low-availability warning at exactly 50%', async () => {
    renderPage(stats(50, 50, 50));
    await card('Total Servers');
    expect(screen.queryByText('Low Pool Availability!')).toBeNull();
    expect(isDestructive(badge())).toBe(true);
  });

  it('shows the failure text when the stats cannot be loaded', async () => {
    renderPage({ error: 'boom' }, 500);
    expect(
      await screen.findByText('Failed to load server pool statistics. Please try refreshing the page.'),
    ).toBeTruthy();
  });

  it('lists quarantined servers with their reason and flagged bots with their failures', async () => {
    renderPage(
      stats(10, 0, 1, {
        quarantined: [
          {
            jobId: 'job-bad-1',
            placeId: '142823291',
            reason: 'Bot reported an error',
            quarantinedAt: '2026-11-22T10:00:00.000Z',
          },
        ],
        flaggedBots: [{ ghostId: 'ghost-7', failedServers: 4, flaggedAt: '2026-11-22T11:00:00.000Z' }],
      }),
    );
    const quarantined = await screen.findByRole('table', { name: 'Quarantined servers' });
    const serverRow = within(quarantined).getByText('job-bad-1').closest('tr') as HTMLElement;
    expect(serverRow.textContent).toContain('Place 142823291');
    expect(serverRow.textContent).toContain('Bot reported an error');
    const flagged = screen.getByRole('table', { name: 'Flagged bots' });
    const botRow = within(flagged).getByText('ghost-7').closest('tr') as HTMLElement;
    expect(within(botRow).getByText('4')).toBeTruthy();
  });

  it('says so when nothing is quarantined or flagged, and Refresh asks again', async () => {
    const fetchMock = renderPage(stats(5, 0, 0));
    expect(await screen.findByText('No quarantined servers')).toBeTruthy();
    expect(screen.getByText('No flagged bots')).toBeTruthy();
    const calls = fetchMock.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
  });
});
