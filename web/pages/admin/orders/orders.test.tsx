import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import type { AdminOrder, PaymentSettings } from '../../../../common/payments.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { PAYMENT_NOTES, SLOT_SHORTFALL_NOTE } from './order-payment-notes.tsx';
import OrdersPage from './orders.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));

const ORDERS_URL = '/api/admin/orders';
const SETTINGS_URL = '/api/admin/payments/settings';

const SETTINGS: PaymentSettings = {
  btcpayUrl: 'https://btcpay.example.com',
  storeId: 'StoreAbc',
  apiKey: '••••cdef',
  webhookSecret: '••••3210',
  fromEnvironment: { btcpayUrl: false, storeId: false, apiKey: false, webhookSecret: false },
  connected: true,
  delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 1 },
};

function order(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: 'Ord3rPaid0000001',
    status: 'paid',
    invoiceId: 'Inv9aBcDeFgHiJkLmN',
    amount: '40',
    currency: 'USD',
    keyType: 'PREMIUM',
    validityHours: 24,
    maxHardwareBindings: 1,
    redemptionCode: 'ABCD********MNOP',
    redemptionKeyId: 7,
    createdAt: '2026-11-25T10:00:00.000Z',
    expiresAt: '2026-11-25T10:15:00.000Z',
    paidAt: '2026-11-25T10:05:00.000Z',
    endedAt: null,
    received: null,
    paymentState: null,
    slotShortfall: false,
    email: null,
    mail: null,
    deliveries: [
      {
        id: 2,
        deliveryId: 'Dlv2',
        originalDeliveryId: 'Dlv1',
        isRedelivery: 1,
        type: 'InvoiceSettled',
        outcome: 'already_paid',
        receivedAt: '2026-11-25T10:06:00.000Z',
      },
      {
        id: 1,
        deliveryId: 'Dlv1',
        originalDeliveryId: null,
        isRedelivery: 0,
        type: 'InvoiceSettled',
        outcome: 'paid',
        receivedAt: '2026-11-25T10:05:00.000Z',
      },
    ],
    ...overrides,
  };
}

const PAID = order();
const PENDING = order({
  id: 'Ord3rPending0002',
  status: 'pending',
  invoiceId: 'InvPending22',
  redemptionCode: null,
  redemptionKeyId: null,
  paidAt: null,
  deliveries: [],
});

const UNDERPAID = order({
  id: 'Ord3rUnderpaid03',
  status: 'underpaid',
  invoiceId: 'InvShort33',
  redemptionCode: null,
  redemptionKeyId: null,
  paidAt: null,
  endedAt: '2026-11-25T10:07:00.000Z',
  received: { amount: '0.01', currency: 'USD' },
  deliveries: [],
});

/** A server filtering as the API does, recording each list query and each resolve call. */
function fakeServer(options: { orders?: AdminOrder[]; settings?: PaymentSettings } = {}) {
  const orders = options.orders ?? [PENDING, PAID];
  const queries: string[] = [];
  const resolved: Array<{ url: string; body: unknown }> = [];
  const fetchMock = mockFetch({
    [`POST ${ORDERS_URL}/${UNDERPAID.id}/resolve`]: (init) => {
      const body = JSON.parse(String(init?.body));
      resolved.push({ url: `${ORDERS_URL}/${UNDERPAID.id}/resolve`, body });
      const index = orders.findIndex((o) => o.id === UNDERPAID.id);
      orders[index] = {
        ...UNDERPAID,
        status: 'paid',
        redemptionCode: 'WXYZ********QRST',
        redemptionKeyId: 9,
      };
      return json({ order: orders[index] });
    },
    [SETTINGS_URL]: () => json({ settings: options.settings ?? SETTINGS }),
    [ORDERS_URL]: (_init, url) => {
      queries.push(url.search);
      const status = url.searchParams.get('status') ?? 'all';
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const shown = orders.filter(
        (o) =>
          (status === 'all' || o.status === status) &&
          (!search ||
            o.id.toLowerCase().includes(search) ||
            (o.invoiceId ?? '').toLowerCase().includes(search)),
      );
      return json({ orders: shown, count: shown.length, timestamp: '2026-11-25T10:10:00.000Z' });
    },
  });
  return { fetchMock, queries, resolved };
}

const rowOf = (id: string) => screen.getByText(id).closest('tr') as HTMLElement;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OrdersPage', () => {
  it('lists orders with status, invoice, amount, the masked code linking to Redemption Codes and times', async () => {
    fakeServer();
    renderAt(<OrdersPage />, '/admin/orders');
    expect(await screen.findByText(PAID.id)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
    expect(screen.getByTestId('count-badge').textContent).toBe('2 orders');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Order',
      'Status',
      'Invoice',
      'Amount',
      'Code',
      'Created',
      'Paid',
      'Deliveries',
    ]);

    const paid = rowOf(PAID.id);
    expect(within(paid).getByText('Paid')).toBeTruthy();
    expect(paid.textContent).toContain('Inv9aBcDeFgHiJkLmN');
    expect(paid.textContent).toContain('40 USD');
    const code = within(paid).getByRole('link', { name: /ABCD\*+MNOP/ });
    expect(code.getAttribute('href')).toBe('/admin/redemption-keys');
    expect(paid.textContent).not.toContain('Never');

    const pending = rowOf(PENDING.id);
    expect(within(pending).getByText('Pending')).toBeTruthy();
    expect(within(pending).queryByRole('link')).toBeNull();
    expect(pending.textContent).toContain('Never');
    // Connected: no note pointing to System Configuration.
    expect(screen.queryByText('Payments are not connected')).toBeNull();
  });

  it('shows an underpaid order with what was received, and issues its code anyway once confirmed', async () => {
    const user = userEvent.setup();
    const { resolved } = fakeServer({ orders: [UNDERPAID, PAID] });
    renderAt(<OrdersPage />, '/admin/orders');
    await screen.findByText(UNDERPAID.id);
    const row = rowOf(UNDERPAID.id);
    expect(within(row).getByText('Underpaid')).toBeTruthy();
    expect(row.textContent).toContain('40 USD');
    expect(within(row).getByTestId('received-figures').textContent).toBe('Received 0.01 USD');
    // A paid order offers no decision.
    expect(within(rowOf(PAID.id)).queryByRole('button', { name: /Issue code anyway/ })).toBeNull();

    await user.click(
      within(row).getByRole('button', { name: `Issue code anyway for order ${UNDERPAID.id}` }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('BTCPay says 0.01 USD was paid for this 40 USD order.');
    await user.click(within(dialog).getByRole('button', { name: 'Issue Code' }));
    await waitFor(() =>
      expect(resolved).toEqual([expect.objectContaining({ body: { action: 'issue_code' } })]),
    );
    await waitFor(() => expect(within(rowOf(UNDERPAID.id)).getByText('Paid')).toBeTruthy());
    expect(within(rowOf(UNDERPAID.id)).getByRole('link', { name: /WXYZ/ })).toBeTruthy();
  });

  it('shows the webhook deliveries an order received, newest first', async () => {
    const user = userEvent.setup();
    fakeServer();
    renderAt(<OrdersPage />, '/admin/orders');
    await screen.findByText(PAID.id);
    await user.click(
      within(rowOf(PAID.id)).getByRole('button', { name: `Webhook deliveries of order ${PAID.id} (2)` }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Webhook deliveries' });
    const items = within(within(dialog).getByRole('list', { name: 'Deliveries' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/InvoiceSettled.*Already paid: nothing changed.*Redelivery of Dlv1/),
      expect.stringMatching(/InvoiceSettled.*Marked paid, code created.*First delivery/),
    ]);
    await user.keyboard('{Escape}');

    await user.click(
      within(rowOf(PENDING.id)).getByRole('button', { name: /Webhook deliveries of order .* \(0\)/ }),
    );
    expect(await screen.findByText(/No webhook delivery yet/)).toBeTruthy();
  });

  it('asks the server for the status chosen and the search typed', async () => {
    const user = userEvent.setup();
    const { queries } = fakeServer();
    renderAt(<OrdersPage />, '/admin/orders');
    await screen.findByText(PAID.id);
    expect(queries[0]).toBe('?status=all');

    await user.click(screen.getByRole('combobox', { name: 'Filter orders by status' }));
    await user.click(await screen.findByRole('option', { name: 'Pending' }));
    await waitFor(() => expect(screen.queryByText(PAID.id)).toBeNull());
    expect(screen.getByText(PENDING.id)).toBeTruthy();
    expect(queries).toContain('?status=pending');

    await user.click(screen.getByRole('combobox', { name: 'Filter orders by status' }));
    await user.click(await screen.findByRole('option', { name: 'All orders' }));
    await user.type(screen.getByLabelText('Search orders'), 'inv9a');
    await waitFor(() => expect(screen.queryByText(PENDING.id)).toBeNull());
    expect(screen.getByText(PAID.id)).toBeTruthy();
    expect(queries).toContain('?status=all&search=inv9a');

    await user.clear(screen.getByLabelText('Search orders'));
    await user.type(screen.getByLabelText('Search orders'), 'nothing-like-it');
    expect(await screen.findByText('No orders match.')).toBeTruthy();
  });

  it('says when there is no order yet, and points to System Configuration while payments are not connected', async () => {
    fakeServer({ orders: [], settings: { ...SETTINGS, connected: false, apiKey: null } });
    renderAt(<OrdersPage />, '/admin/orders');
    expect(await screen.findByText('No orders yet')).toBeTruthy();
    expect(await screen.findByText('Payments are not connected')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'System Configuration' }).getAttribute('href')).toBe(
      '/admin/system-configuration',
    );
  });

  it('says why the orders could not be loaded', async () => {
    mockFetch({
      [SETTINGS_URL]: () => json({ settings: SETTINGS }),
      [ORDERS_URL]: () => json({ error: 'Database unavailable' }, 503),
    });
    renderAt(<OrdersPage />, '/admin/orders');
    expect(await screen.findByText('Error loading orders')).toBeTruthy();
    expect(screen.getByText('Failed to load orders: Database unavailable')).toBeTruthy();
  });

  it('says what BTCPay reported beyond the status, a late payment without a free slot, and the masked e-mail with its mail', async () => {
    const late = order({
      id: 'Ord3rLate0000004',
      paymentState: 'late',
      slotShortfall: true,
      email: 'b***@example.com',
      mail: { state: 'failed', attempts: 1, error: '550 5.1.1 Recipient address rejected', sentAt: null },
    });
    const partial = order({
      id: 'Ord3rPartial0005',
      status: 'pending',
      redemptionCode: null,
      redemptionKeyId: null,
      paidAt: null,
      paymentState: 'partial',
      received: { amount: '15', currency: 'USD' },
      deliveries: [],
    });
    const confirming = order({
      id: 'Ord3rProcess0006',
      status: 'pending',
      redemptionCode: null,
      redemptionKeyId: null,
      paidAt: null,
      paymentState: 'processing',
      email: 'c***@example.com',
      mail: null,
      deliveries: [],
    });
    fakeServer({ orders: [late, partial, confirming] });
    renderAt(<OrdersPage />, '/admin/orders');
    await screen.findByText(late.id);

    const lateRow = within(rowOf(late.id));
    expect(lateRow.getByText(PAYMENT_NOTES.late)).toBeTruthy();
    expect(lateRow.getByRole('note').textContent).toBe(SLOT_SHORTFALL_NOTE);
    expect(lateRow.getByText('b***@example.com')).toBeTruthy();
    expect(lateRow.getByText(/Mail failed: 550 5.1.1 Recipient address rejected/)).toBeTruthy();

    const partialRow = within(rowOf(partial.id));
    expect(partialRow.getByText(PAYMENT_NOTES.partial)).toBeTruthy();
    expect(partialRow.getByTestId('received-figures').textContent).toBe('Received 15 USD');

    const confirmingRow = within(rowOf(confirming.id));
    expect(confirmingRow.getByText(PAYMENT_NOTES.processing)).toBeTruthy();
    expect(confirmingRow.getByText('c***@example.com')).toBeTruthy();
    expect(confirmingRow.queryByRole('note')).toBeNull();
  });
});
