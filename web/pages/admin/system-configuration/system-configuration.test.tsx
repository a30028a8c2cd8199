import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import { renderAt } from '../shared/test-utils.tsx';
import SystemConfigurationPage from './system-configuration.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/realtime.tsx', () => ({
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
  useRealtime: () => ({ status: 'connected', reconnect: () => {}, requestSystemHealth: () => {} }),
}));

const CONFIG_URL = '/api/admin/system-configuration';
const USAGE_URL = '/api/admin/system-configuration/slot-usage';
const SAVED = {
  totalSlots: 30,
  paymentWallets: { BTC: 'bc1qsavedaddress000000000000' },
  hwidResetsPerWeek: 1,
};
const USAGE = { usedSlots: 4, availableSlots: 26, totalSlots: 30, utilizationPercentage: 13 };

/** A server that keeps what is PUT (an absent hwidResetsPerWeek keeps the stored one) and records each PUT body. */
function fakeServer() {
  let configuration = structuredClone(SAVED);
  const puts: unknown[] = [];
  const fetchMock = mockFetch({
    [CONFIG_URL]: () => json({ configuration }),
    [USAGE_URL]: () => json({ slotUsage: USAGE }),
    [`PUT ${CONFIG_URL}`]: (init) => {
      const body = JSON.parse(String(init?.body));
      puts.push(body);
      configuration = { ...configuration, ...body };
      return json({ configuration });
    },
  });
  return { fetchMock, puts };
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SystemConfigurationPage', () => {
  it('shows slots, utilisation and the saved wallets on the overview', async () => {
    fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    expect(await screen.findByText('4 of 30 slots used')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Available Slots' }).textContent).toContain('26');
    expect(screen.getByRole('group', { name: 'Configured Wallets' }).textContent).toContain('1');
    expect(screen.getByText('bc1qsave...00000000')).toBeTruthy();
    expect(screen.getByText('Connected')).toBeTruthy();
  });

  it('says why the configuration failed to load', async () => {
    mockFetch({
      [CONFIG_URL]: () => json({ error: 'Database unavailable' }, 503),
      [USAGE_URL]: () => json({ slotUsage: USAGE }),
    });
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    expect(await screen.findByText('Failed to load system configuration: Database unavailable')).toBeTruthy();
  });

  it('refuses a negative capacity and saves a valid one with the saved wallets', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: 'Slot Management' }));
    const field = await screen.findByLabelText('Total Slots');

    await user.clear(field);
    await user.type(field, '-1');
    await user.click(screen.getByRole('button', { name: 'Save Capacity' }));
    expect(await screen.findByText('Total slots must be 0 or greater')).toBeTruthy();
    expect(puts).toEqual([]);

    await user.clear(field);
    await user.type(field, '40');
    await user.click(screen.getByRole('button', { name: 'Save Capacity' }));
    await waitFor(() => expect(puts).toEqual([{ totalSlots: 40, paymentWallets: SAVED.paymentWallets }]));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Configuration Updated' })),
    );
  });

  it('saves the HWID resets per week with the saved slots and wallets, refusing a negative count', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: 'Slot Management' }));
    const field = await screen.findByLabelText('HWID resets per week');
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('1'));

    await user.clear(field);
    await user.type(field, '-2');
    await user.click(screen.getByRole('button', { name: 'Save Resets' }));
    expect(await screen.findByText('Device resets per week must be 0 or greater')).toBeTruthy();
    expect(puts).toEqual([]);

    await user.clear(field);
    await user.type(field, '3');
    await user.click(screen.getByRole('button', { name: 'Save Resets' }));
    await waitFor(() =>
      expect(puts).toEqual([{ totalSlots: 30, paymentWallets: SAVED.paymentWallets, hwidResetsPerWeek: 3 }]),
    );
    expect(await screen.findByText('Currently saved: 3')).toBeTruthy();
  });

  it('edits wallets as a draft and publishes them with Save Configuration', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));

    expect((screen.getByRole('button', { name: 'BTC' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save Configuration' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    await user.click(screen.getByRole('button', { name: 'Add Wallet' }));
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({
        title: 'Invalid Wallet',
        description: 'Please provide both currency and wallet address',
        variant: 'destructive',
      }),
    );

    await user.type(screen.getByLabelText('Currency'), 'usdt');
    expect((screen.getByLabelText('Currency') as HTMLInputElement).value).toBe('USDT');
    await user.clear(screen.getByLabelText('Currency'));
    await user.click(screen.getByRole('button', { name: 'ETH' }));
    expect((screen.getByLabelText('Currency') as HTMLInputElement).value).toBe('ETH');
    await user.type(screen.getByLabelText('Wallet Address'), '0xabc');
    await user.click(screen.getByRole('button', { name: 'Add Wallet' }));
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Wallet Added' }));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'ETH' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Remove BTC wallet' }));
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Wallet Removed' }));
    expect(puts).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() => expect(puts).toEqual([{ totalSlots: 30, paymentWallets: { ETH: '0xabc' } }]));
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).toBeNull());
  });

  it('keeps a wallet edit made while the save is still finishing (its slot usage refresh in flight)', async () => {
    const user = userEvent.setup();
    let configuration = structuredClone(SAVED);
    let usageAsked = 0;
    let answerUsage: () => void = () => {};
    mockFetch({
      [CONFIG_URL]: () => json({ configuration }),
      [USAGE_URL]: () => {
        usageAsked += 1;
        // The first answer comes at once; the refresh after the save waits until the test lets it go.
        if (usageAsked === 1) return json({ slotUsage: USAGE });
        return new Promise<Response>((resolve) => {
          answerUsage = () => resolve(json({ slotUsage: USAGE }));
        });
      },
      [`PUT ${CONFIG_URL}`]: (init) => {
        configuration = JSON.parse(String(init?.body));
        return json({ configuration });
      },
    });
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));

    await user.click(screen.getByRole('button', { name: 'ETH' }));
    await user.type(screen.getByLabelText('Wallet Address'), '0xabc');
    await user.click(screen.getByRole('button', { name: 'Add Wallet' }));
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Configuration Updated' })),
    );
    await waitFor(() => expect(usageAsked).toBe(2));

    // The admin goes on editing before the refresh is back: that edit must not be thrown away.
    await user.click(screen.getByRole('button', { name: 'Remove ETH wallet' }));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    answerUsage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save Configuration' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('warns when the total drops below the slots in use, and saves it only after confirmation', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: 'Slot Management' }));
    const field = await screen.findByLabelText('Total Slots');
    const warning =
      '4 slots are in use: lowering the total below that leaves no slot available until keys expire.';
    expect(screen.queryByText(warning)).toBeNull();

    await user.clear(field);
    await user.type(field, '3');
    expect(screen.getByText(warning)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Capacity' }));
    const question = await screen.findByRole('alertdialog', { name: 'Set fewer slots than are in use?' });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(puts).toEqual([]);

    await user.clear(field);
    await user.type(field, '4');
    expect(screen.queryByText(warning)).toBeNull();
    await user.clear(field);
    await user.type(field, '2');
    await user.click(screen.getByRole('button', { name: 'Save Capacity' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Save Anyway' }),
    );
    await waitFor(() => expect(puts).toEqual([{ totalSlots: 2, paymentWallets: SAVED.paymentWallets }]));
  });

  it("says 'Save Failed' with the server's message when saving fails", async () => {
    const user = userEvent.setup();
    mockFetch({
      [CONFIG_URL]: () => json({ configuration: SAVED }),
      [USAGE_URL]: () => json({ slotUsage: USAGE }),
      [`PUT ${CONFIG_URL}`]: () => json({ error: 'Wallet address cannot be empty' }, 400),
    });
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: 'Slot Management' }));
    await user.click(await screen.findByRole('button', { name: 'Save Capacity' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Save Failed',
        description: 'Wallet address cannot be empty',
        variant: 'destructive',
      }),
    );
  });

  it('shows why the server refused a wallet on its row, in the operator’s words, and keeps the draft', async () => {
    const user = userEvent.setup();
    const reason = 'BTC: this is not a Bitcoin address';
    mockFetch({
      [CONFIG_URL]: () => json({ configuration: { ...SAVED, paymentWallets: {}, walletProblems: {} } }),
      [USAGE_URL]: () => json({ slotUsage: USAGE }),
      [`PUT ${CONFIG_URL}`]: () => json({ error: reason, walletProblems: { BTC: reason } }, 400),
    });
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));
    await user.type(await screen.findByLabelText('Currency'), 'btc');
    await user.type(screen.getByLabelText('Wallet Address'), 'hello world not an address');
    await user.click(screen.getByRole('button', { name: 'Add Wallet' }));
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    const row = within(screen.getByRole('list', { name: 'Configured wallets' })).getByRole('listitem');
    expect((await within(row).findByRole('alert')).textContent).toBe(
      `${reason}. Buyers are not shown this wallet: fix or remove it.`,
    );
    expect(toast).toHaveBeenCalledWith({ title: 'Save Failed', description: reason, variant: 'destructive' });
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('flags a saved wallet buyers are not shown, on the wallets tab and the overview', async () => {
    const user = userEvent.setup();
    const reason = 'DOGE🐶: a currency code is 2 to 10 capital letters or digits, such as BTC';
    mockFetch({
      [CONFIG_URL]: () =>
        json({
          configuration: {
            ...SAVED,
            paymentWallets: { ...SAVED.paymentWallets, 'DOGE🐶': 'hello' },
            walletProblems: { 'DOGE🐶': reason },
          },
        }),
      [USAGE_URL]: () => json({ slotUsage: USAGE }),
    });
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    expect(await screen.findByText('Hidden from buyers')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Payment Wallets/ }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([
      `${reason}. Buyers are not shown this wallet: fix or remove it.`,
    ]);
  });

  it('refuses a currency code with emoji or symbols when adding, saying why', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));
    await user.type(await screen.findByLabelText('Currency'), 'DOGE🐶');
    await user.type(screen.getByLabelText('Wallet Address'), 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L');
    await user.click(screen.getByRole('button', { name: 'Add Wallet' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'Invalid Wallet',
      description: 'DOGE🐶: a currency code is 2 to 10 capital letters or digits, such as BTC',
      variant: 'destructive',
    });
    expect(screen.queryByRole('list', { name: 'Configured wallets' })?.textContent ?? '').not.toContain(
      'DOGE',
    );
    expect(puts).toEqual([]);
  });

  it('saves the community invite link (https only) and clears it when emptied', async () => {
    const user = userEvent.setup();
    const { puts } = fakeServer();
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    await user.click(await screen.findByRole('tab', { name: /Payment Wallets/ }));
    const field = await screen.findByLabelText('Invite link');
    expect(screen.getByText('Not set: buyers are told to contact the seller.')).toBeTruthy();
    await user.type(field, 'http://discord.gg/x');
    await user.click(screen.getByRole('button', { name: 'Save Link' }));
    expect(await screen.findByText('Enter an https:// link, or leave it empty')).toBeTruthy();
    expect(puts).toEqual([]);

    await user.clear(field);
    await user.type(field, 'https://discord.gg/our-shop');
    await user.click(screen.getByRole('button', { name: 'Save Link' }));
    await waitFor(() =>
      expect(puts).toEqual([
        { ...SAVED, hwidResetsPerWeek: undefined, communityInviteUrl: 'https://discord.gg/our-shop' },
      ]),
    );
    expect(await screen.findByText('Currently saved: https://discord.gg/our-shop')).toBeTruthy();
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save Link' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect((puts[1] as { communityInviteUrl: unknown }).communityInviteUrl).toBeNull();
  });
});
