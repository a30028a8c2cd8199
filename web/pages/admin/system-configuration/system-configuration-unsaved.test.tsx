import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import { renderAt, resetBetweenTests } from '../shared/test-utils.tsx';
import { UNSET_PAYMENT_SETTINGS } from './payment-settings.fixtures.ts';
import SystemConfigurationPage from './system-configuration.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/realtime.tsx', () => ({
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
  useRealtime: () => ({ status: 'connected', reconnect: () => {}, requestSystemHealth: () => {} }),
}));

resetBetweenTests();

const PATH = '/admin/system-configuration';

/** The screen with a sidebar link away (to the dashboard stub), on a server holding 30 slots and a BTC wallet. */
function renderScreen() {
  mockFetch({
    '/api/admin/system-configuration': () =>
      json({
        configuration: {
          totalSlots: 30,
          paymentWallets: { BTC: 'bc1qsavedaddress000000000000' },
          hwidResetsPerWeek: 1,
        },
      }),
    '/api/admin/system-configuration/slot-usage': () =>
      json({ slotUsage: { usedSlots: 4, availableSlots: 26, totalSlots: 30, utilizationPercentage: 13 } }),
    '/api/admin/payments/settings': () => json({ settings: UNSET_PAYMENT_SETTINGS }),
  });
  renderAt(
    <>
      <SystemConfigurationPage />
      <Link to="/admin/dashboard">Dashboard</Link>
    </>,
    PATH,
    PATH,
  );
  return userEvent.setup();
}

const currentPath = () => screen.getByTestId('current-path').textContent;
const leaveQuestion = () => screen.findByRole('alertdialog', { name: 'Leave without saving?' });

describe('System Configuration: unsaved edits are never dropped silently', () => {
  it('lets the admin leave freely while nothing is edited', async () => {
    const user = renderScreen();
    await screen.findByText('4 of 30 slots used');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before a link leaves a wallet draft: Stay keeps the draft, Leave goes', async () => {
    const user = renderScreen();
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));
    await user.click(screen.getByRole('button', { name: 'Remove BTC wallet' }));
    expect(screen.getByText('No payment wallets configured')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(within(await leaveQuestion()).getByRole('button', { name: 'Stay' }));
    expect(currentPath()).toBe(PATH);
    expect(screen.getByText('No payment wallets configured')).toBeTruthy();

    // The wallet draft survives a look at another tab, so switching tabs does not ask.
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(within(await leaveQuestion()).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
  });

  it('asks before a tab switch drops a typed capacity: Stay keeps it, Leave discards it', async () => {
    const user = renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Slot Management' }));
    const field = await screen.findByLabelText('Total Slots');
    await user.clear(field);
    await user.type(field, '45');

    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    const question = await leaveQuestion();
    expect(question.textContent).toContain('This tab has changes that are not saved.');
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect((screen.getByLabelText('Total Slots') as HTMLInputElement).value).toBe('45');

    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    await user.click(within(await leaveQuestion()).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('4 of 30 slots used')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Slot Management' }));
    expect(((await screen.findByLabelText('Total Slots')) as HTMLInputElement).value).toBe('30');
  });

  it('asks before a link leaves a half-typed payment processor connection', async () => {
    const user = renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Payment Processor' }));
    await user.type(await screen.findByLabelText('Store ID'), 'StoreAbc');
    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    await user.click(within(await leaveQuestion()).getByRole('button', { name: 'Stay' }));
    expect((screen.getByLabelText('Store ID') as HTMLInputElement).value).toBe('StoreAbc');
    expect(currentPath()).toBe(PATH);
  });
});
