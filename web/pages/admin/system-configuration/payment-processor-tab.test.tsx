import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import { BTCPAY_WEBHOOK_EVENTS } from '../../../../common/order-texts.ts';
import type { PaymentConnection, PaymentSettings } from '../../../../common/payments.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { UNSET_PAYMENT_SETTINGS } from './payment-settings.fixtures.ts';
import SystemConfigurationPage from './system-configuration.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/realtime.tsx', () => ({
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
  useRealtime: () => ({ status: 'connected', reconnect: () => {}, requestSystemHealth: () => {} }),
}));

const CONFIG_URL = '/api/admin/system-configuration';
const USAGE_URL = '/api/admin/system-configuration/slot-usage';
const SETTINGS_URL = '/api/admin/payments/settings';
const CONNECTION_URL = '/api/admin/payments/connection';

const UNSET = UNSET_PAYMENT_SETTINGS;

const CONNECTED: PaymentSettings = {
  ...UNSET,
  btcpayUrl: 'https://btcpay.example.com',
  storeId: 'StoreAbc',
  apiKey: '••••cdef',
  webhookSecret: '••••3210',
  connected: true,
};

const mask = (value: string) => `••••${value.slice(-4)}`;

/** A server keeping the settings as the API does (absent keeps, null clears), recording each PUT body. */
function fakeServer(
  start: PaymentSettings,
  connection: PaymentConnection = {
    configured: true,
    reachable: true,
    storeName: 'Scanline Shop',
    error: null,
    checkedAt: '2026-11-25T10:00:00.000Z',
  },
) {
  let settings = structuredClone(start);
  const puts: Record<string, unknown>[] = [];
  const fetchMock = mockFetch({
    [CONFIG_URL]: () => json({ configuration: { totalSlots: 30, paymentWallets: {}, hwidResetsPerWeek: 1 } }),
    [USAGE_URL]: () =>
      json({ slotUsage: { usedSlots: 0, availableSlots: 30, totalSlots: 30, utilizationPercentage: 0 } }),
    [SETTINGS_URL]: () => json({ settings }),
    [CONNECTION_URL]: () => json(connection),
    [`PUT ${SETTINGS_URL}`]: (init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, any>;
      puts.push(body);
      const next = { ...settings };
      for (const field of ['btcpayUrl', 'storeId'] as const) if (field in body) next[field] = body[field];
      for (const field of ['apiKey', 'webhookSecret'] as const) {
        if (field in body) next[field] = body[field] === null ? null : mask(body[field]);
      }
      if (body.delivery) next.delivery = body.delivery;
      next.connected = Boolean(next.btcpayUrl && next.storeId && next.apiKey && next.webhookSecret);
      settings = next;
      return json({ settings });
    },
  });
  return { fetchMock, puts };
}

async function openTab() {
  const user = userEvent.setup();
  renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
  await user.click(await screen.findByRole('tab', { name: 'Payment Processor' }));
  await screen.findByRole('form', { name: 'BTCPay Server connection' });
  return user;
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('System Configuration: Payment Processor', () => {
  it('keeps the spec’s tabs and adds the processor after them', async () => {
    fakeServer(UNSET);
    renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Overview',
      'Slot Management',
      'Payment Wallets',
      'Payment Processor',
      'Discord',
    ]);
  });

  it('unset: says not connected, hides what an order delivers, and saves the four settings', async () => {
    const { puts } = fakeServer(UNSET);
    const user = await openTab();
    expect(screen.getByText('Not connected')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Order delivery' })).toBeNull();
    expect(screen.getByTestId('webhook-url').textContent).toBe(
      `${window.location.origin}/api/payments/btcpay/webhook`,
    );

    await user.type(screen.getByLabelText('BTCPay Server URL'), 'https://btcpay.example.com');
    await user.type(screen.getByLabelText('Store ID'), 'StoreAbc');
    const key = screen.getByLabelText('API key');
    expect(key.getAttribute('type')).toBe('password');
    await user.type(key, 'greenfield-key-0123456789abcdef');
    await user.type(screen.getByLabelText('Webhook secret'), 'whsec-9f8e7d6c5b4a3210');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      btcpayUrl: 'https://btcpay.example.com',
      storeId: 'StoreAbc',
      apiKey: 'greenfield-key-0123456789abcdef',
      webhookSecret: 'whsec-9f8e7d6c5b4a3210',
    });
    expect(toast).toHaveBeenCalledWith({
      title: 'Payment Settings Saved',
      description: 'Orders use the new settings now.',
    });
    // Connected now: the store answers, the delivery form shows, and the key input is empty again.
    expect(await screen.findByText('Connected to Scanline Shop')).toBeTruthy();
    expect(await screen.findByRole('form', { name: 'Order delivery' })).toBeTruthy();
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText('API key').getAttribute('placeholder')).toBe('••••cdef');
  });

  it('saves a half-filled connection saying what is missing, never that orders use it', async () => {
    const { puts } = fakeServer(UNSET);
    const user = await openTab();
    await user.type(screen.getByLabelText('BTCPay Server URL'), 'https://btcpay.example.com');
    await user.type(screen.getByLabelText('Store ID'), 'StoreAbc');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Payment Settings Saved',
        description:
          'Not connected yet: the API key and the webhook secret are missing. Until they are saved, buyers cannot pay through BTCPay Server.',
      }),
    );
    expect(screen.getByText('Not connected')).toBeTruthy();

    await user.type(screen.getByLabelText('API key'), 'greenfield-key-0123456789abcdef');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith({
        title: 'Payment Settings Saved',
        description:
          'Not connected yet: the webhook secret is missing. Until it is saved, buyers cannot pay through BTCPay Server.',
      }),
    );
  });

  it('lists the webhook events the manual names, "An invoice is processing" among them', async () => {
    fakeServer(UNSET);
    await openTab();
    const events = within(screen.getByRole('list', { name: 'Webhook events' }));
    expect(events.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      ...BTCPAY_WEBHOOK_EVENTS,
    ]);
    expect(events.getByText('An invoice is processing')).toBeTruthy();
  });

  it('shows the stored key and secret only masked, keeps them when left empty, and clears one on request', async () => {
    const { puts } = fakeServer(CONNECTED);
    const user = await openTab();
    expect(screen.getByLabelText('API key').getAttribute('placeholder')).toBe('••••cdef');
    expect(screen.getByLabelText('Webhook secret').getAttribute('placeholder')).toBe('••••3210');
    expect(screen.getByText('Saved (••••cdef). Leave empty to keep it.')).toBeTruthy();

    const storeId = screen.getByLabelText('Store ID');
    await user.clear(storeId);
    await user.type(storeId, 'StoreXyz');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() => expect(puts).toEqual([{ storeId: 'StoreXyz' }]));

    await user.click(screen.getByRole('button', { name: 'Clear webhook secret' }));
    await user.click(await screen.findByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(puts[1]).toEqual({ webhookSecret: null }));
    expect(await screen.findByText('Not connected')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Order delivery' })).toBeNull());
  });

  it('asks for the API key again when the URL changes, and sends the URL only with it', async () => {
    const { puts } = fakeServer(CONNECTED);
    const user = await openTab();
    const url = screen.getByLabelText('BTCPay Server URL');
    await user.clear(url);
    await user.type(url, 'https://new-btcpay.example.com');
    expect(
      screen.getByText(
        'The URL changed: enter the API key again. A saved key is only ever sent to the server it was entered for.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));
    expect((await screen.findByRole('alert')).textContent).toContain('enter the API key again');
    expect(puts).toEqual([]);

    await user.type(screen.getByLabelText('API key'), 'new-greenfield-key-0001');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() =>
      expect(puts).toEqual([
        { btcpayUrl: 'https://new-btcpay.example.com', apiKey: 'new-greenfield-key-0001' },
      ]),
    );
  });

  it('shows fields the environment sets read-only, naming the variable, and never sends them', async () => {
    const { puts } = fakeServer({
      ...CONNECTED,
      fromEnvironment: { btcpayUrl: true, storeId: false, apiKey: true, webhookSecret: false },
    });
    const user = await openTab();
    const url = screen.getByLabelText('BTCPay Server URL') as HTMLInputElement;
    expect(url.readOnly).toBe(true);
    expect(url.value).toBe('https://btcpay.example.com');
    expect(screen.getByText('Set by the environment (BTCPAY_URL): change it there.')).toBeTruthy();
    expect((screen.getByLabelText('API key') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText('Set by the environment (BTCPAY_API_KEY): change it there.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear API key' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Clear webhook secret' })).toBeTruthy();

    await user.type(screen.getByLabelText('Webhook secret'), 'new-secret-value-1');
    await user.click(screen.getByRole('button', { name: 'Save Connection' }));
    await waitFor(() => expect(puts).toEqual([{ webhookSecret: 'new-secret-value-1' }]));
  });

  it('during a secret rotation, says which previous secret still verifies, until when, and when it was last used', async () => {
    const expiresAt = '2026-11-25T11:30:00.000Z';
    const lastUsedAt = '2026-11-25T10:05:00.000Z';
    fakeServer({
      ...CONNECTED,
      previousWebhookSecret: { secret: '••••0ld1', fromEnvironment: false, expiresAt, lastUsedAt },
    });
    await openTab();
    const note = screen.getByTestId('previous-webhook-secret');
    expect(note.textContent).toBe(
      `The previous webhook secret (••••0ld1) still verifies until ${format(new Date(expiresAt), 'MMM d, HH:mm')}. ` +
        `A delivery last came signed with it at ${format(new Date(lastUsedAt), 'MMM d, HH:mm')}: ` +
        'enter the new secret in BTCPay if you have not yet.',
    );
  });

  it('shows a previous secret from the environment without an end', async () => {
    fakeServer({
      ...CONNECTED,
      fromEnvironment: { btcpayUrl: false, storeId: false, apiKey: false, webhookSecret: true },
      previousWebhookSecret: { secret: '••••0ld1', fromEnvironment: true, expiresAt: null, lastUsedAt: null },
    });
    await openTab();
    expect(screen.getByTestId('previous-webhook-secret').textContent).toBe(
      'The previous webhook secret (••••0ld1, BTCPAY_WEBHOOK_SECRET_PREVIOUS) verifies while it is set. ' +
        'No delivery has come signed with it since.',
    );
  });

  it('shows no previous secret outside a rotation', async () => {
    fakeServer(CONNECTED);
    await openTab();
    expect(screen.queryByTestId('previous-webhook-secret')).toBeNull();
  });

  it('says why the store does not answer', async () => {
    fakeServer(CONNECTED, {
      configured: true,
      reachable: false,
      storeName: null,
      error: 'BTCPay Server refused the API key (401): check the key in your account’s API keys',
      checkedAt: '2026-11-25T10:00:00.000Z',
    });
    await openTab();
    expect(await screen.findByText('Not answering')).toBeTruthy();
    expect(
      screen.getByText('BTCPay Server refused the API key (401): check the key in your account’s API keys'),
    ).toBeTruthy();
  });

  it('connected: validates what an order delivers as the create-code form does, and saves it', async () => {
    const { puts } = fakeServer(CONNECTED);
    const user = await openTab();
    const form = await screen.findByRole('form', { name: 'Order delivery' });
    const validity = within(form).getByLabelText('Validity (hours)');
    const devices = within(form).getByLabelText('Device limit');
    expect((validity as HTMLInputElement).value).toBe('24');
    expect((devices as HTMLInputElement).value).toBe('1');

    await user.clear(validity);
    await user.type(validity, '721');
    await user.click(within(form).getByRole('button', { name: 'Save Delivery' }));
    expect(await within(form).findByRole('alert')).toBeTruthy();
    expect(puts).toEqual([]);

    // An unparsable entry falls back to the default, as in the create-code form.
    await user.clear(validity);
    await user.clear(devices);
    await user.type(devices, '3');
    await user.click(within(form).getByRole('button', { name: 'Save Delivery' }));
    await waitFor(() =>
      expect(puts).toEqual([{ delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 3 } }]),
    );
  });
});
