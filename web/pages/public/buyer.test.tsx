import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { leavePageFor } from '@/lib/navigation.ts';
import { json, mockClipboard, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { clockTime } from '../../../common/order-texts.ts';
import { BuyerPage } from './buyer.tsx';

vi.mock('@/lib/navigation.ts', () => ({ leavePageFor: vi.fn() }));

const PURCHASE_INFO = '/api/public/purchase-info';
const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const INVITE = 'https://discord.gg/our-shop';
const OFFER = { priceUsd: 40, validityHours: 24, maxDevices: 1 };
/** A purchase-info answer as the server gives it. */
const info = (available: number, extra: Record<string, unknown> = {}) => ({
  slots: { available, total: 3, utilizationPercentage: Math.round(((3 - available) / 3) * 100) },
  paymentWallets: available > 0 ? { BTC } : {},
  offer: OFFER,
  nextFreeAt: null,
  communityInviteUrl: INVITE,
  ...extra,
});

beforeAll(() => {
  // Radix ScrollArea measures its content; jsdom has no ResizeObserver.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(leavePageFor).mockClear();
});

describe('BuyerPage', () => {
  it('lists each wallet shortened to 8 + 8 and copies the full address', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({
          slots: { available: 3, total: 30, utilizationPercentage: 90 },
          paymentWallets: { BTC, ETH: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F' },
        }),
    });
    const writeText = mockClipboard();
    renderWithProviders(<BuyerPage />);
    expect(await screen.findByText('bc1qxy2k...fjhx0wlh')).toBeTruthy();
    expect(screen.getByText('0x71C765...f6d8976F')).toBeTruthy();
    expect(screen.getByText('3/30 slots available')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Copy BTC wallet address' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(BTC));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
  });

  it('says so when no wallet is configured', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 3, total: 30, utilizationPercentage: 90 }, paymentWallets: {} }),
    });
    renderWithProviders(<BuyerPage />);
    expect(await screen.findByText('No payment wallets are set up yet.')).toBeTruthy();
  });

  it('shows the payment options failure text when the call fails', async () => {
    mockFetch({ [PURCHASE_INFO]: () => new Response('boom', { status: 500 }) });
    renderWithProviders(<BuyerPage />);
    expect(await screen.findByText('Failed to load payment options')).toBeTruthy();
    expect(screen.getByText('Failed to load availability')).toBeTruthy();
  });

  it('states the price, the steps and opens the saved community invite in a new tab', async () => {
    mockFetch({ [PURCHASE_INFO]: () => json(info(2)) });
    renderWithProviders(<BuyerPage />);
    expect(screen.getByRole('heading', { name: 'Premium Access - Purchase' })).toBeTruthy();
    expect(screen.getByText(/Send exactly 40 USD worth of any supported cryptocurrency/)).toBeTruthy();
    expect(screen.getByText(/premium license key within 24 hours/)).toBeTruthy();
    const invite = await screen.findByRole('link', { name: /Join Community Chat/ });
    expect(invite.getAttribute('href')).toBe(INVITE);
    expect(invite.getAttribute('target')).toBe('_blank');
    expect(screen.getByText(/create a ticket and give us the transaction hash/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to Home/ }).getAttribute('href')).toBe('/');
  });

  it('states the validity and the device limit of what is bought, before paying', async () => {
    mockFetch({
      [PURCHASE_INFO]: () => json(info(2, { offer: { priceUsd: 40, validityHours: 72, maxDevices: 3 } })),
    });
    renderWithProviders(<BuyerPage />);
    expect(
      await screen.findByText(
        /Premium access costs 40 USD, paid via cryptocurrency\. Valid 3 days from redemption, on 3 devices at a time\./,
      ),
    ).toBeTruthy();
    const facts = screen.getByRole('list', { name: 'What one purchase gives' });
    expect(facts.textContent).toContain('Valid 3 days from redemption');
    expect(facts.textContent).toContain('3 devices at a time');
  });

  it('says the default 24 hours and 1 device', async () => {
    mockFetch({ [PURCHASE_INFO]: () => json(info(2)) });
    renderWithProviders(<BuyerPage />);
    expect(await screen.findByText(/Valid 24 hours from redemption, on 1 device at a time\./)).toBeTruthy();
  });

  it('tells buyers to contact the seller when no invite link is set', async () => {
    mockFetch({ [PURCHASE_INFO]: () => json(info(2, { communityInviteUrl: null })) });
    renderWithProviders(<BuyerPage />);
    expect(
      await screen.findByText(
        /Contact the seller where you found this page to create a ticket and give us the transaction hash/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Join Community Chat/ })).toBeNull();
  });

  it('with no free slot hides the wallets, Copy, Pay now and the steps, says when to come back, and shows them again once a slot frees', async () => {
    const nextFreeAt = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString();
    let answer = info(0, { nextFreeAt, payNow: true });
    mockFetch({ [PURCHASE_INFO]: () => json(answer) });
    const { queryClient } = renderWithProviders(<BuyerPage />);
    expect(
      await screen.findByText(`A slot may free by ${clockTime(nextFreeAt)}: come back then.`),
    ).toBeTruthy();
    expect(screen.getByText('All premium slots are taken')).toBeTruthy();
    expect(screen.getByText(/Do not send a payment now/)).toBeTruthy();
    expect(screen.getByText('0/3 slots available')).toBeTruthy();
    expect(screen.queryByText('Accepted Cryptocurrencies')).toBeNull();
    expect(screen.queryByRole('button', { name: /Copy/ })).toBeNull();
    expect(screen.queryByText(/Send exactly 40 USD/)).toBeNull();
    expect(screen.queryByText('How to Purchase')).toBeNull();
    expect(screen.queryByRole('button', { name: /Pay now|Sold Out/ })).toBeNull();

    // The page polls purchase info; the next answer has a free slot.
    answer = info(1, { payNow: true });
    await queryClient.refetchQueries();
    expect(await screen.findByText('bc1qxy2k...fjhx0wlh')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy BTC wallet address' })).toBeTruthy();
    expect(screen.getByText(/Send exactly 40 USD/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeTruthy();
    expect(screen.queryByText('All premium slots are taken')).toBeNull();
  });

  it('says the day as well when the first slot frees on another day, and "check back later" when no end is known', async () => {
    const nextFreeAt = '2099-03-04T10:30:00.000Z';
    mockFetch({ [PURCHASE_INFO]: () => json(info(0, { nextFreeAt })) });
    const first = renderWithProviders(<BuyerPage />);
    expect(await screen.findByText(/A slot may free by .*4 Mar.*: come back then\./)).toBeTruthy();
    first.unmount();

    mockFetch({ [PURCHASE_INFO]: () => json(info(0)) });
    const second = renderWithProviders(<BuyerPage />);
    expect(await screen.findByText('Check back later: no taken slot has an end time yet.')).toBeTruthy();
    second.unmount();

    // The operator offers no slot at all.
    mockFetch({
      [PURCHASE_INFO]: () => json(info(0, { slots: { available: 0, total: 0, utilizationPercentage: 100 } })),
    });
    renderWithProviders(<BuyerPage />);
    expect(await screen.findByText('Sales are paused for now: check back later.')).toBeTruthy();
  });

  it('offers no Pay now without a connected payment processor', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 3, total: 30, utilizationPercentage: 90 }, paymentWallets: { BTC } }),
    });
    renderWithProviders(<BuyerPage />);
    await screen.findByText('bc1qxy2k...fjhx0wlh');
    expect(screen.queryByRole('button', { name: /Pay now/ })).toBeNull();
    expect(screen.queryByText(/Or pay now at checkout/)).toBeNull();
  });
});

describe('BuyerPage with Pay now', () => {
  const connected = (available: number) => () =>
    json({
      slots: { available, total: 30, utilizationPercentage: 0 },
      paymentWallets: { BTC },
      payNow: true,
      offer: OFFER,
      nextFreeAt: null,
      communityInviteUrl: INVITE,
    });

  it('creates an order and sends the buyer to its checkout, keeping the manual steps', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = mockFetch({
      [PURCHASE_INFO]: connected(3),
      'POST /api/public/orders': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));

    const progress = await screen.findByRole('button', { name: 'Opening checkout...' });
    expect((progress as HTMLButtonElement).disabled).toBe(true);
    answer(json({ orderId: 'AbCdEfGhIjKlMnOp', checkoutLink: 'https://pay.example.com/i/inv1' }, 201));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://pay.example.com/i/inv1'));
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/api/public/orders' && init?.method === 'POST'),
    ).toBe(true);
    // The spec's manual path is still there for everyone.
    expect(screen.getByText(/create a ticket and give us the transaction hash/)).toBeTruthy();
    expect(screen.getByText('bc1qxy2k...fjhx0wlh')).toBeTruthy();
  });

  it('turns to Sold Out when the server has no slot left for the order (409)', async () => {
    mockFetch({
      [PURCHASE_INFO]: connected(1),
      'POST /api/public/orders': () => json({ error: 'Sold Out' }, 409),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    const soldOut = await screen.findByRole('button', { name: 'Sold Out' });
    expect((soldOut as HTMLButtonElement).disabled).toBe(true);
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it('while pending payments hold every free slot, says how many and when one frees, with no way to pay', async () => {
    const freeAgainAt = '2026-12-01T14:05:00.000Z';
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({
          slots: { available: 0, total: 30, utilizationPercentage: 100 },
          paymentWallets: {},
          payNow: true,
          reserved: { slots: 1, freeAgainAt },
          offer: OFFER,
          nextFreeAt: freeAgainAt,
          communityInviteUrl: INVITE,
        }),
    });
    renderWithProviders(<BuyerPage />);
    const text = `1 slot reserved by pending payments, free again by ${clockTime(freeAgainAt)}`;
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByText('All premium slots are taken')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Pay now|Sold Out/ })).toBeNull();
  });

  it('tells the buyer when the server finds the free slots reserved by pending payments (409)', async () => {
    const freeAgainAt = '2026-12-01T14:05:00.000Z';
    mockFetch({
      [PURCHASE_INFO]: connected(1),
      'POST /api/public/orders': () =>
        json(
          {
            error: '3 slots reserved by pending payments, free again by 14:05 UTC',
            reason: 'slots_reserved',
            reservedSlots: 3,
            freeAgainAt,
          },
          409,
        ),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    const text = `3 slots reserved by pending payments, free again by ${clockTime(freeAgainAt)}`;
    expect(((await screen.findByRole('button', { name: text })) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Sold Out' })).toBeNull();
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it('says an order from this address is already waiting, in the buyer’s time', async () => {
    const freeAgainAt = '2026-12-01T14:05:00.000Z';
    mockFetch({
      [PURCHASE_INFO]: connected(5),
      'POST /api/public/orders': () =>
        json({ error: 'An order …', reason: 'order_pending', freeAgainAt }, 409),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      `An order from your address is already waiting for payment: finish it at its checkout, or order again after ${clockTime(freeAgainAt)}.`,
    );
    expect((screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('goes back to the checkout of the order this browser already has waiting (200)', async () => {
    mockFetch({
      [PURCHASE_INFO]: connected(3),
      'POST /api/public/orders': () =>
        json({ orderId: 'AbCdEfGhIjKlMnOp', checkoutLink: '/api/public/orders/AbCdEfGhIjKlMnOp/checkout' }),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    await waitFor(() =>
      expect(leavePageFor).toHaveBeenCalledWith('/api/public/orders/AbCdEfGhIjKlMnOp/checkout'),
    );
  });

  it("shows the server's reason when the order cannot be made, and lets the buyer try again", async () => {
    const text = 'The payment processor is not answering. Please try again in a minute.';
    mockFetch({
      [PURCHASE_INFO]: connected(2),
      'POST /api/public/orders': () => json({ error: text }, 503),
    });
    renderWithProviders(<BuyerPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect((screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement).disabled).toBe(false);
    expect(leavePageFor).not.toHaveBeenCalled();
  });
});
