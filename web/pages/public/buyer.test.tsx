import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, mockClipboard, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { BuyerPage } from './buyer.tsx';

const PURCHASE_INFO = '/api/public/purchase-info';
const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

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

  it('states the price, the steps and opens the community invite in a new tab', () => {
    mockFetch({ [PURCHASE_INFO]: () => new Promise<Response>(() => {}) });
    renderWithProviders(<BuyerPage />);
    expect(screen.getByRole('heading', { name: 'Premium Access - Purchase' })).toBeTruthy();
    expect(screen.getByText(/Send exactly 40 USD worth of any supported cryptocurrency/)).toBeTruthy();
    expect(screen.getByText(/create a ticket and give us the transaction hash/)).toBeTruthy();
    expect(screen.getByText(/premium license key within 24 hours/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Join Community Chat/ }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /Back to Home/ }).getAttribute('href')).toBe('/');
  });
});
