import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import { clockTime } from '../../../common/order-texts.ts';
import { LandingPage } from './landing.tsx';
import { PURCHASE_INFO_FETCH_ERROR, purchaseInfoQuery } from './public-queries.ts';

const PURCHASE_INFO = '/api/public/purchase-info';

afterEach(() => {
  vi.unstubAllGlobals();
});

function buyButton() {
  return screen.getByRole('button', { name: /Sold Out|Loading\.\.\./ }) as HTMLButtonElement;
}

describe('LandingPage premium card', () => {
  it('links to /buyer while slots are free, with the count, badge and free share', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 12, total: 30, utilizationPercentage: 60 }, paymentWallets: {} }),
    });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('12/30 slots available')).toBeTruthy();
    expect(screen.getByText('Available')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Buy Premium Access/ }).getAttribute('href')).toBe('/buyer');
    expect(
      screen.getByRole('progressbar', { name: 'Free premium slots' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(screen.getByText('What You Get')).toBeTruthy();
    expect(screen.getByText('Pets at 10M/s and up')).toBeTruthy();
  });

  it('reads Loading... and is disabled while the data loads', () => {
    mockFetch({ [PURCHASE_INFO]: () => new Promise<Response>(() => {}) });
    renderWithProviders(<LandingPage />);
    expect(buyButton().textContent).toBe('Loading...');
    expect(buyButton().disabled).toBe(true);
  });

  it('is disabled and reads Sold Out with the Full badge when no slot is free', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 0, total: 30, utilizationPercentage: 100 }, paymentWallets: {} }),
    });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('0/30 slots available')).toBeTruthy();
    expect(screen.getByText('Full')).toBeTruthy();
    expect(buyButton().textContent).toBe('Sold Out');
    expect(buyButton().disabled).toBe(true);
    expect(screen.queryByRole('link', { name: /Buy Premium Access/ })).toBeNull();
  });

  it('says how many slots pending payments hold and when they free, instead of Sold Out', async () => {
    const freeAgainAt = '2026-12-01T14:05:00.000Z';
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({
          slots: { available: 0, total: 30, utilizationPercentage: 100 },
          paymentWallets: {},
          reserved: { slots: 2, freeAgainAt },
        }),
    });
    renderWithProviders(<LandingPage />);
    const text = `2 slots reserved by pending payments, free again by ${clockTime(freeAgainAt)}`;
    expect((await screen.findByRole('status')).textContent).toBe(text);
    const button = screen.getByRole('button', { name: text }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText('Reserved')).toBeTruthy();
    expect(screen.queryByText('Sold Out')).toBeNull();
    expect(screen.queryByText('Full')).toBeNull();
  });

  it('stays Sold Out when the slots are sold, even with payments pending', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 0, total: 30, utilizationPercentage: 100 }, paymentWallets: {} }),
    });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('Full')).toBeTruthy();
    expect(buyButton().textContent).toBe('Sold Out');
    expect(screen.queryByText(/reserved by pending payments/)).toBeNull();
  });

  it('says the availability failed and stays Sold Out when the call fails', async () => {
    mockFetch({ [PURCHASE_INFO]: () => new Response('boom', { status: 500 }) });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('Failed to load availability')).toBeTruthy();
    expect(buyButton().textContent).toBe('Sold Out');
    expect(buyButton().disabled).toBe(true);
  });

  it('fails the purchase-info query with the underlying spec text, keeping the HTTP error as cause', async () => {
    mockFetch({ [PURCHASE_INFO]: () => new Response('boom', { status: 500 }) });
    const { queryFn } = purchaseInfoQuery();
    const failure = (queryFn as () => Promise<unknown>)();
    await expect(failure).rejects.toThrow(PURCHASE_INFO_FETCH_ERROR);
    await failure.catch((error: Error) => expect(String(error.cause)).toContain('500: boom'));
  });

  it('counts out of 30 when the total is unknown', async () => {
    mockFetch({ [PURCHASE_INFO]: () => json({ slots: { available: 5 }, paymentWallets: {} }) });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('5/30 slots available')).toBeTruthy();
  });

  it('opens the saved community invite in a new tab and links to the scripts page', async () => {
    const communityInviteUrl = 'https://discord.gg/our-shop';
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 5, total: 30 }, paymentWallets: {}, communityInviteUrl }),
    });
    renderWithProviders(<LandingPage />);
    const invite = await screen.findByRole('link', { name: /Join Community/ });
    expect(invite.getAttribute('href')).toBe(communityInviteUrl);
    expect(invite.getAttribute('target')).toBe('_blank');
    expect(invite.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: /Get Scripts/ }).getAttribute('href')).toBe('/scripts');
  });

  it('says how to reach support instead of a chat link while no invite link is set', async () => {
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({ slots: { available: 5, total: 30 }, paymentWallets: {}, communityInviteUrl: null }),
    });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText(/Contact the seller where you found this page/)).toBeTruthy();
    expect(screen.getByText(/The community chat link is not set up yet/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Join Community/ })).toBeNull();
  });
});

describe("LandingPage's LIVE badge", () => {
  const withFleet = (state: string | undefined) =>
    mockFetch({
      [PURCHASE_INFO]: () =>
        json({
          slots: { available: 5, total: 30 },
          paymentWallets: {},
          ...(state ? { fleet: { state } } : {}),
        }),
    });

  it('says LIVE and ACTIVE only while the network is live', async () => {
    withFleet('live');
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('LIVE')).toBeTruthy();
    expect(screen.getByText('ACTIVE')).toBeTruthy();
  });

  it.each([
    ['down', 'OFFLINE'],
    ['stopped', 'PAUSED'],
    ['degraded', 'DEGRADED'],
  ])('says %s as %s, never LIVE or ACTIVE', async (state, word) => {
    withFleet(state);
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText(word)).toBeTruthy();
    expect(screen.queryByText('LIVE')).toBeNull();
    expect(screen.queryByText('ACTIVE')).toBeNull();
  });

  it('claims nothing before the answer (the prerendered page) or when it cannot be had', async () => {
    withFleet(undefined);
    renderWithProviders(<LandingPage />);
    expect(screen.getByText('Checking the network status')).toBeTruthy();
    expect(screen.queryByText('LIVE')).toBeNull();
    await screen.findByText('5/30 slots available');
    expect(screen.queryByText('LIVE')).toBeNull();

    vi.unstubAllGlobals();
    mockFetch({ [PURCHASE_INFO]: () => json({ error: 'boom' }, 500) });
    renderWithProviders(<LandingPage />);
    expect(await screen.findByText('STATUS UNKNOWN', {}, { timeout: 5000 })).toBeTruthy();
  });
});
