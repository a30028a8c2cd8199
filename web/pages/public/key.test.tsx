import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderWithProviders } from '@/test/render.tsx';
import type { KeyStatusResponse } from '../../../common/key-status.ts';
import { KeyPage } from './key.tsx';
import { timeUntil } from './key-time.ts';

const KEY = 'SCANLINE-ABCD-EFGH-IJKL';
const DAY = 86_400_000;

function status(overrides: Partial<KeyStatusResponse> = {}): KeyStatusResponse {
  return {
    type: 'PREMIUM',
    status: 'Active',
    disabledReason: null,
    expiresAt: new Date(Date.now() + 3 * DAY + 5 * 3_600_000 + 60_000).toISOString(),
    maxDevices: 2,
    devices: [
      { id: 'a1b2****c3d4', firstSeen: '2026-11-20T10:00:00.000Z', lastSeen: '2026-11-25T10:00:00.000Z' },
    ],
    resetsLeft: 1,
    nextResetAt: null,
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

async function check(key = KEY) {
  fireEvent.change(screen.getByLabelText('Script key'), { target: { value: key } });
  fireEvent.click(screen.getByRole('button', { name: 'Check key' }));
}

describe('KeyPage', () => {
  it('sends the pasted key in a POST body and shows its type, status, expiry, devices and resets', async () => {
    const fetchMock = mockFetch({ 'POST /api/script/key-status': () => json(status()) });
    renderWithProviders(<KeyPage />, '/key');
    expect(screen.getByRole('heading', { level: 1, name: 'My key' })).toBeTruthy();
    await check(`  ${KEY} `);

    expect(await screen.findByText('Premium')).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText(/\(3 days 5 hours left\)/)).toBeTruthy();
    expect(screen.getByText('1 of 2 devices bound')).toBeTruthy();
    expect(screen.getByText('a1b2****c3d4')).toBeTruthy();
    expect(screen.getByText(/First seen Nov 20, 2026/)).toBeTruthy();
    expect(within(screen.getByText('Resets left').parentElement as HTMLElement).getByText('1')).toBeTruthy();

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/script/key-status');
    expect(JSON.parse(String(init?.body))).toEqual({ key: KEY });
  });

  it('says why a key the server switched off is off', async () => {
    const reason =
      'it was used from 25 addresses in 25 networks within 24 hours, which looks like a shared key. Ask the seller to switch it back on';
    mockFetch({
      'POST /api/script/key-status': () => json(status({ status: 'Inactive', disabledReason: reason })),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    expect(await screen.findByText('Inactive')).toBeTruthy();
    expect(
      within(screen.getByText('Why').parentElement as HTMLElement).getByText(`Switched off: ${reason}.`),
    ).toBeTruthy();
  });

  it('says the key was not found on the generic 404', async () => {
    mockFetch({ 'POST /api/script/key-status': () => json({ error: 'Key not found' }, 404) });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Key not found/);
    expect(screen.queryByText('Key status')).toBeNull();
  });

  it('resets the devices only after confirming, then shows what was removed and the budget left', async () => {
    const nextResetAt = new Date(Date.now() + 7 * DAY - 60_000).toISOString();
    const fetchMock = mockFetch({
      'POST /api/script/key-status': () => json(status()),
      'POST /api/script/reset-hwid': () => json({ removed: 1, resetsLeft: 0, nextResetAt }),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset devices' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Reset devices?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/script/reset-hwid')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Reset devices' }));
    const again = await screen.findByRole('alertdialog', { name: 'Reset devices?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Reset devices' }));

    expect((await screen.findByRole('status')).textContent).toBe('Devices reset: 1 device removed.');
    expect(screen.getByText('0 of 2 devices bound')).toBeTruthy();
    expect(within(screen.getByText('Resets left').parentElement as HTMLElement).getByText('0')).toBeTruthy();
    // The spent budget shows in the Next reset row and as the reason the button cannot be pressed.
    expect(
      within(screen.getByText('Next reset').parentElement as HTMLElement).getByText(/in 6 days 23 hours/),
    ).toBeTruthy();
    expect(
      screen.getByText(/^No resets left\. The next reset is available .* \(in 6 days 23 hours\)\.$/),
    ).toBeTruthy();
    const resetCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/script/reset-hwid');
    expect(JSON.parse(String(resetCall?.[1]?.body))).toEqual({ key: KEY });
  });

  it('says when the next reset is possible on a 429 (another tab spent the last one)', async () => {
    const nextResetAt = new Date(Date.now() + 2 * DAY + 3 * 3_600_000 + 60_000).toISOString();
    mockFetch({
      'POST /api/script/key-status': () => json(status({ resetsLeft: 1 })),
      'POST /api/script/reset-hwid': () => json({ error: 'No device reset left', nextResetAt }, 429),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset devices' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset devices' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^No resets left\. The next reset is available .* \(in 2 days 3 hours\)\.$/,
    );
    expect(screen.getByText('a1b2****c3d4')).toBeTruthy();
  });
});

describe('KeyPage: one key, recovery, reset, renewal (issue 36)', () => {
  const SCRIPT_KEY = `SK-${'ab12'.repeat(16)}`;

  it('finds the key from the used code and shows it masked, with reveal and copy', async () => {
    const fetchMock = mockFetch({
      'POST /api/script/key-status': () => json(status({ scriptKey: SCRIPT_KEY })),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check('SCANLINE-AB12-CD34-EF56-GH78');
    const shown = await screen.findByTestId('my-script-key');
    expect(shown.textContent).toBe(`SK-ab12a${'*'.repeat(12)}ab12`);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal key' }));
    expect(screen.getByTestId('my-script-key').textContent).toBe(SCRIPT_KEY);
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeTruthy();
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ key: 'SCANLINE-AB12-CD34-EF56-GH78' });
  });

  it('tells to close the old script before a reset, resets the script key, then says to run the script again', async () => {
    const fetchMock = mockFetch({
      'POST /api/script/key-status': () => json(status({ scriptKey: SCRIPT_KEY })),
      'POST /api/script/reset-hwid': () => json({ removed: 1, resetsLeft: 0, nextResetAt: null }),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check('SCANLINE-AB12-CD34-EF56-GH78');
    fireEvent.click(await screen.findByRole('button', { name: 'Reset devices' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset devices?' });
    expect(dialog.textContent).toContain('Close the script on the old PC first.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset devices' }));
    expect((await screen.findByRole('status')).textContent).toBe('Devices reset: 1 device removed.');
    expect(screen.getByText('Now run the script again on your new PC: it binds to the key.')).toBeTruthy();
    const resetCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/script/reset-hwid');
    expect(JSON.parse(String(resetCall?.[1]?.body))).toEqual({ key: SCRIPT_KEY });
  });

  it('disables Reset devices with no reset left and says why, before any confirmation', async () => {
    const nextResetAt = new Date(Date.now() + 2 * DAY + 3 * 3_600_000 + 60_000).toISOString();
    mockFetch({ 'POST /api/script/key-status': () => json(status({ resetsLeft: 0, nextResetAt })) });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    const button = await screen.findByRole('button', { name: 'Reset devices' });
    // Unavailable but focusable (the dialog gives focus back to it), with the reason as its description.
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const reason = screen.getByText(
      /^No resets left\. The next reset is available .* \(in 2 days 3 hours\)\.$/,
    );
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    fireEvent.click(button);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('offers no reset on an expired key, and renews it with a code', async () => {
    const past = new Date(Date.now() - DAY).toISOString();
    const renewedTo = new Date(Date.now() + DAY + 60_000).toISOString();
    const fetchMock = mockFetch({
      'POST /api/script/key-status': () =>
        json(status({ status: 'Expired', expiresAt: past, scriptKey: SCRIPT_KEY })),
      'POST /api/script/redeem': () => json({ extended: true, expiresAt: renewedTo, addedHours: 24 }),
    });
    renderWithProviders(<KeyPage />, '/key');
    await check();
    expect(await screen.findByText(/\(expired\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset devices' })).toBeNull();
    expect(screen.getByText(/This key has expired, so its devices cannot be reset/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Renewal code'), {
      target: { value: ' SCANLINE-NEW1-NEW2-NEW3-NEW4 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add time' }));
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Added 24 hours\. The key now expires .* \(1 day left\)\.$/,
    );
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset devices' })).toBeTruthy();
    const redeem = fetchMock.mock.calls.find(([url]) => String(url) === '/api/script/redeem');
    expect(JSON.parse(String(redeem?.[1]?.body))).toEqual({
      code: 'SCANLINE-NEW1-NEW2-NEW3-NEW4',
      key: SCRIPT_KEY,
    });
  });
});

describe('timeUntil', () => {
  const now = Date.parse('2026-11-25T00:00:00.000Z');
  it('reads the two largest units, and "now" once past', () => {
    expect(timeUntil('2026-11-27T03:00:00.000Z', now)).toBe('2 days 3 hours');
    expect(timeUntil('2026-11-26T00:00:00.000Z', now)).toBe('1 day');
    expect(timeUntil('2026-11-25T01:05:30.000Z', now)).toBe('1 hour 5 minutes');
    expect(timeUntil('2026-11-25T00:00:30.000Z', now)).toBe('less than a minute');
    expect(timeUntil('2026-11-24T00:00:00.000Z', now)).toBe('now');
  });
});
