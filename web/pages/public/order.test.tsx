import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leavePageFor } from '@/lib/navigation.ts';
import { json, mockClipboard, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { ORDER_LOOKUP_TEXTS, ORDER_POLL_MS, ORDER_TEXTS, REDEEM_STEPS } from '../../../common/order-texts.ts';
import type { OrderStatusResponse } from '../../../common/payments.ts';
import { OrderPage } from './order.tsx';

vi.mock('@/lib/navigation.ts', () => ({ leavePageFor: vi.fn() }));

const ORDER_ID = 'AbCdEfGhIjKlMnOp';
const SECRET = 'abcdefghijklmnopqrstuv';
const STATUS_CALL = `POST /api/public/orders/${ORDER_ID}/status`;
const CODE = 'SCANLINE-ABCD-EFGH-IJKL';

function order(overrides: Partial<OrderStatusResponse> = {}): OrderStatusResponse {
  return {
    status: 'pending',
    keyType: 'PREMIUM',
    validityHours: 24,
    expiresAt: new Date(Date.now() + 14 * 60_000 + 30_000).toISOString(),
    checkoutLink: 'https://pay.example.com/i/inv1',
    ...overrides,
  };
}

/** Opens the page at `/order/{id}#{secret}` (the page reads the browser's address, not the router's). */
function openOrderPage(hash = `#${SECRET}`, id = ORDER_ID) {
  window.history.replaceState(null, '', `/order/${id}${hash}`);
  return renderWithProviders(<OrderPage />, `/order/${id}`);
}

/** The status calls made so far. */
const statusCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === `/api/public/orders/${ORDER_ID}/status`);

/** What the live regions hold (the page's status line, and any toast's). */
const announced = () => screen.getAllByRole('status').map((region) => region.textContent);

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

afterEach(() => {
  vi.mocked(leavePageFor).mockClear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setVisibility('visible');
  window.history.replaceState(null, '', '/');
});

describe('OrderPage', () => {
  it('shows the code, what it delivers and how to redeem it once paid, and copies the code', async () => {
    const fetchMock = mockFetch({ [STATUS_CALL]: () => json(order({ status: 'paid', code: CODE })) });
    const writeText = mockClipboard();
    openOrderPage();

    expect(screen.getByRole('heading', { level: 1, name: 'Your order' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.paid })).toBeTruthy();
    expect(screen.getByText(CODE)).toBeTruthy();
    expect(
      within(screen.getByText('Key type').parentElement as HTMLElement).getByText('Premium'),
    ).toBeTruthy();
    expect(
      within(screen.getByText('Valid for').parentElement as HTMLElement).getByText('24 hours'),
    ).toBeTruthy();
    const steps = within(screen.getByRole('list', { name: 'How to redeem' })).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([...REDEEM_STEPS]);
    expect(screen.getByRole('link', { name: 'Get the script' }).getAttribute('href')).toBe('/scripts');
    expect(screen.getByRole('link', { name: 'Check my key' }).getAttribute('href')).toBe('/key');
    expect(announced()).toContain(ORDER_TEXTS.paid);

    // The secret goes in the POST body, never in the address asked.
    const [url, init] = statusCalls(fetchMock)[0] ?? [];
    expect(String(url)).not.toContain(SECRET);
    expect(JSON.parse(String(init?.body))).toEqual({ secret: SECRET });

    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CODE));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
  });

  it('waits for the payment with the expiry and the checkout link, then shows the code when it is paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let paid = false;
    const fetchMock = mockFetch({
      [STATUS_CALL]: () => json(paid ? order({ status: 'paid', code: CODE }) : order()),
    });
    openOrderPage();

    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.waiting })).toBeTruthy();
    expect(screen.getByText(/\(in 14 minutes\)/)).toBeTruthy();
    expect(screen.getByText('Premium, valid 24 hours')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Return to the checkout/ }).getAttribute('href')).toBe(
      'https://pay.example.com/i/inv1',
    );
    expect(announced()).toContain(ORDER_TEXTS.waiting);

    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(statusCalls(fetchMock)).toHaveLength(2);
    paid = true;
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(await screen.findByText(CODE)).toBeTruthy();
    expect(announced()).toContain(ORDER_TEXTS.paid);

    // Paid is final: no more asking.
    const calls = statusCalls(fetchMock).length;
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS * 3));
    expect(statusCalls(fetchMock)).toHaveLength(calls);
  });

  it('stops asking while the tab is hidden and asks again as soon as it is shown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch({ [STATUS_CALL]: () => json(order()) });
    openOrderPage();
    await screen.findByRole('heading', { name: ORDER_TEXTS.waiting });
    expect(statusCalls(fetchMock)).toHaveLength(1);

    act(() => setVisibility('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS * 3));
    expect(statusCalls(fetchMock)).toHaveLength(1);

    act(() => setVisibility('visible'));
    await waitFor(() => expect(statusCalls(fetchMock)).toHaveLength(2));
  });

  it('offers a new order once the order expired', async () => {
    mockFetch({ [STATUS_CALL]: () => json(order({ status: 'expired', checkoutLink: undefined })) });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.expired })).toBeTruthy();
    expect(screen.getByRole('link', { name: ORDER_TEXTS.startAgain }).getAttribute('href')).toBe('/buyer');
    expect(screen.queryByRole('link', { name: /checkout/ })).toBeNull();
  });

  it('offers a new order when the payment was not accepted', async () => {
    mockFetch({ [STATUS_CALL]: () => json(order({ status: 'invalid', checkoutLink: undefined })) });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.invalid })).toBeTruthy();
    expect(screen.getByRole('link', { name: ORDER_TEXTS.startAgain }).getAttribute('href')).toBe('/buyer');
  });

  it('says in plain words that an underpaid payment did not match, with the figures and what to do', async () => {
    mockFetch({
      [STATUS_CALL]: () =>
        json(
          order({
            status: 'underpaid',
            checkoutLink: undefined,
            expected: { amount: '40', currency: 'USD' },
            received: { amount: '0.01', currency: 'USD' },
          }),
        ),
    });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.mismatch })).toBeTruthy();
    expect(screen.getByText(/less than the price of this order/)).toBeTruthy();
    expect(screen.getByText(/Open a ticket in the community chat with your order ID/)).toBeTruthy();
    expect(within(screen.getByText('Price').parentElement as HTMLElement).getByText('40 USD')).toBeTruthy();
    expect(
      within(screen.getByText('Received').parentElement as HTMLElement).getByText('0.01 USD'),
    ).toBeTruthy();
    expect(screen.getByText(ORDER_ID)).toBeTruthy();
    expect(screen.queryByText(CODE)).toBeNull();
  });

  it('says a payment in another currency did not match, and a refunded one was refunded', async () => {
    let status: OrderStatusResponse = order({
      status: 'mismatch',
      checkoutLink: undefined,
      expected: { amount: '40', currency: 'USD' },
      received: { amount: '40', currency: 'EUR' },
    });
    mockFetch({ [STATUS_CALL]: () => json(status) });
    const { unmount } = openOrderPage();
    expect(await screen.findByText(/in another currency or for another amount/)).toBeTruthy();
    expect(screen.getByText('40 EUR')).toBeTruthy();
    unmount();
    status = order({ status: 'refunded', checkoutLink: undefined });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.refunded })).toBeTruthy();
    expect(screen.getByRole('link', { name: ORDER_TEXTS.startAgain })).toBeTruthy();
  });

  it('says the order was not found on a 404 (an unknown order or a wrong secret)', async () => {
    mockFetch({ [STATUS_CALL]: () => json({ error: 'Order not found' }, 404) });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.notFound })).toBeTruthy();
    expect(screen.getByText(/including everything after the #/)).toBeTruthy();
  });

  it('asks nothing and explains the link when the address has no secret', async () => {
    const fetchMock = mockFetch({});
    openOrderPage('');
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.notFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: ORDER_TEXTS.startAgain }).getAttribute('href')).toBe('/buyer');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the order failed to load when the server cannot be reached, and tries again on request', async () => {
    let reachable = false;
    mockFetch({
      [STATUS_CALL]: () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return json(order({ status: 'paid', code: CODE }));
      },
    });
    openOrderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(ORDER_TEXTS.failedToLoad);
    reachable = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(CODE)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reads a confirming payment as received, with no deadline and no way to pay again, until the code comes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let settled = false;
    mockFetch({
      [STATUS_CALL]: () =>
        json(
          settled
            ? order({ status: 'paid', code: CODE, checkoutLink: undefined })
            : order({ payment: 'processing', checkoutLink: undefined }),
        ),
    });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.processing })).toBeTruthy();
    expect(screen.getByText(ORDER_TEXTS.processingHelp)).toBeTruthy();
    expect(screen.queryByText(ORDER_TEXTS.waiting)).toBeNull();
    expect(screen.queryByText('Pay before')).toBeNull();
    expect(screen.queryByRole('link', { name: /checkout/i })).toBeNull();
    expect(announced()).toContain(ORDER_TEXTS.processing);
    settled = true;
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(await screen.findByText(CODE)).toBeTruthy();
  });

  it('keeps asking on an expired page, so a late payment shows its code without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let paidLate = false;
    mockFetch({
      [STATUS_CALL]: () =>
        json(
          paidLate
            ? order({ status: 'paid', code: CODE, payment: 'late', checkoutLink: undefined })
            : order({ status: 'expired', checkoutLink: undefined, expiresAt: new Date().toISOString() }),
        ),
    });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.expired })).toBeTruthy();
    expect(screen.getByText(new RegExp(ORDER_TEXTS.expiredWatching))).toBeTruthy();
    paidLate = true;
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(await screen.findByText(CODE)).toBeTruthy();
    expect(screen.getByText(ORDER_TEXTS.paidLate)).toBeTruthy();
  });

  it('shows a partial payment with what arrived and the checkout to pay the rest', async () => {
    mockFetch({
      [STATUS_CALL]: () =>
        json(
          order({
            payment: 'partial',
            expected: { amount: '40', currency: 'USD' },
            received: { amount: '15', currency: 'USD' },
          }),
        ),
    });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.partial })).toBeTruthy();
    expect(
      within(screen.getByText('Received so far').parentElement as HTMLElement).getByText('15 USD'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: /Pay the rest at the checkout/ }).getAttribute('href')).toBe(
      'https://pay.example.com/i/inv1',
    );
  });

  it('says an overpaid order got its code and what to do about the difference', async () => {
    mockFetch({
      [STATUS_CALL]: () =>
        json(
          order({
            status: 'paid',
            code: CODE,
            payment: 'over',
            checkoutLink: undefined,
            expected: { amount: '40', currency: 'USD' },
            received: { amount: '55', currency: 'USD' },
          }),
        ),
    });
    openOrderPage();
    expect(await screen.findByText(CODE)).toBeTruthy();
    expect(screen.getByText(/You paid more than the price/).textContent).toContain(
      'Received 55 USD for 40 USD',
    );
  });

  it('says a redeemed code was redeemed, not that it is ready, and links to My key', async () => {
    mockFetch({
      [STATUS_CALL]: () =>
        json(order({ status: 'paid', code: CODE, redeemed: true, checkoutLink: undefined })),
    });
    openOrderPage();
    expect(await screen.findByRole('heading', { name: ORDER_TEXTS.redeemed })).toBeTruthy();
    expect(screen.queryByText(/is ready/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'How to redeem' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open My key' }).getAttribute('href')).toBe('/key');
    expect(announced()).toContain(ORDER_TEXTS.redeemed);
  });

  it('finds a lost order page by the invoice ID and the e-mail', async () => {
    const link = `http://localhost/order/${ORDER_ID}#${SECRET}`;
    let asked: unknown;
    mockFetch({
      'POST /api/public/orders/lookup': (init) => {
        asked = JSON.parse(String(init?.body));
        return asked && (asked as { email: string }).email === 'me@example.com'
          ? json({ orderId: ORDER_ID, orderLink: link })
          : json({ error: ORDER_LOOKUP_TEXTS.notFound }, 404);
      },
    });
    openOrderPage('');
    expect(await screen.findByRole('heading', { name: ORDER_LOOKUP_TEXTS.title })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(ORDER_LOOKUP_TEXTS.invoiceLabel), { target: { value: 'Inv123' } });
    fireEvent.change(screen.getByLabelText(ORDER_LOOKUP_TEXTS.emailLabel), {
      target: { value: 'other@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: ORDER_LOOKUP_TEXTS.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(ORDER_LOOKUP_TEXTS.notFound);
    expect(leavePageFor).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(ORDER_LOOKUP_TEXTS.emailLabel), {
      target: { value: ' me@example.com ' },
    });
    fireEvent.click(screen.getByRole('button', { name: ORDER_LOOKUP_TEXTS.submit }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(link));
    expect(asked).toEqual({ invoiceId: 'Inv123', email: 'me@example.com' });
  });
});
