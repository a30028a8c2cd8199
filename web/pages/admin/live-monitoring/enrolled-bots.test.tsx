import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import type { EnrolledBot } from '../../../../common/bot-enrollment.ts';
import { formatDate } from '../../../../common/format.ts';
import { EnrolledBotsCard } from './enrolled-bots.tsx';

const bot = (ghostId: string, over: Partial<EnrolledBot> = {}): EnrolledBot => ({
  ghostId,
  enrolledAt: '2026-11-30T09:00:00.000Z',
  enrolledAddress: '10.0.0.1',
  lastSeenAt: '2026-12-01T10:15:00.000Z',
  lastAddress: '10.0.0.2',
  ...over,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Enrolled Bots (Live Monitoring, Scanner Status)', () => {
  it('lists each enrolled bot with when it enrolled, when it was last seen and from where', async () => {
    mockFetch({
      '/api/admin/fleet/enrollments': () =>
        json({
          enrolledBots: [bot('ghost-01'), bot('ghost-02', { lastSeenAt: null, lastAddress: null })],
        }),
    });
    renderWithProviders(<EnrolledBotsCard />);
    const table = await screen.findByRole('table', { name: 'Enrolled Bots' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [
        'ghost-01',
        formatDate('2026-11-30T09:00:00.000Z'),
        formatDate('2026-12-01T10:15:00.000Z'),
        '10.0.0.2',
        '',
      ],
      ['ghost-02', formatDate('2026-11-30T09:00:00.000Z'), 'Never', '10.0.0.1', ''],
    ]);
  });

  it('says when no bot is enrolled', async () => {
    mockFetch({ '/api/admin/fleet/enrollments': () => json({ enrolledBots: [] }) });
    renderWithProviders(<EnrolledBotsCard />);
    expect(await screen.findByText('No enrolled bots')).toBeTruthy();
  });

  it('revokes a bot after asking, toasts, and lists the bots again', async () => {
    let listed = [bot('ghost-01'), bot('ghost-02')];
    const fetchMock = mockFetch({
      '/api/admin/fleet/enrollments': () => json({ enrolledBots: listed }),
      'DELETE /api/admin/fleet/enrollments/ghost-01': () => {
        listed = [bot('ghost-02')];
        return json({ success: true, ghostId: 'ghost-01' });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<EnrolledBotsCard />);
    await user.click(await screen.findByRole('button', { name: 'Revoke ghost-01' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Revoke the credential of bot ghost-01?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock).not.toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ method: 'DELETE' }),
    );

    await user.click(screen.getByRole('button', { name: 'Revoke ghost-01' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Credential revoked')).toBeTruthy();
    expect(screen.getByText('Bot ghost-01 can no longer connect with its credential.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/fleet/enrollments/ghost-01',
      expect.objectContaining({ method: 'DELETE' }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke ghost-01' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Revoke ghost-02' })).toBeTruthy();
  });

  it("toasts the server's reason when a revoke is refused", async () => {
    mockFetch({
      '/api/admin/fleet/enrollments': () => json({ enrolledBots: [bot('ghost-01')] }),
      'DELETE /api/admin/fleet/enrollments/ghost-01': () =>
        json({ error: 'Bot ghost-01 is not enrolled' }, 404),
    });
    const user = userEvent.setup();
    renderWithProviders(<EnrolledBotsCard />);
    await user.click(await screen.findByRole('button', { name: 'Revoke ghost-01' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Revoke failed')).toBeTruthy();
    expect(screen.getByText('Bot ghost-01 is not enrolled')).toBeTruthy();
  });
});
