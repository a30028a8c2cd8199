import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockClipboard, mockFetch } from '@/test/render.tsx';
import { formatDate } from '../../../../common/format.ts';
import type { HardwareBinding } from '../../../../common/hardware-bindings.ts';
import { renderAt } from '../shared/test-utils.tsx';
import HardwareBindingsPage from './hardware-bindings.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));

const LIST_URL = '/api/admin/hardware/bindings';
const REVOKE_URL = '/api/admin/license/revoke-binding';
const TIMESTAMP = '2026-11-22T12:30:00.000Z';

function binding(overrides: Partial<HardwareBinding> = {}): HardwareBinding {
  return {
    id: 1,
    hardwareId: 'HWID-PHONE-0001',
    status: 'ACTIVE',
    firstBindDate: '2026-11-20T10:00:00.000Z',
    lastUsedDate: '2026-11-22T09:00:00.000Z',
    deviceInfo: { deviceName: "Alice's Pixel", os: 'Android 15', architecture: 'arm64', deviceType: 'phone' },
    licenseKey: { licenseKey: 'SCAN-ABCD-EFGH-IJKL-MNOP', keyType: 'PREMIUM' },
    ...overrides,
  };
}

const phone = binding();
const laptop = binding({
  id: 2,
  hardwareId: 'HWID-LAPTOP-0002',
  deviceInfo: { deviceName: 'Work Laptop', os: 'Windows 11', architecture: 'x64', deviceType: 'laptop' },
  licenseKey: { licenseKey: 'SCRIPTKEY-1234567890-WXYZ', keyType: 'VIP' },
});
/** The phone again under another key, revoked: a second binding, not a second device. */
const revokedPhone = binding({
  id: 3,
  status: 'REVOKED',
  lastUsedDate: null,
  deviceInfo: null,
  licenseKey: { licenseKey: 'FREEKEY-0000-1111-2222', keyType: 'FREE' },
});
const orphan = binding({ id: 4, hardwareId: 'HWID-DESKTOP-0004', deviceInfo: null, licenseKey: null });

/** A server holding `initial`, recording every call's method, URL and body. */
function fakeServer(initial: HardwareBinding[]) {
  let bindings = [...initial];
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fetchMock = mockFetch({
    [LIST_URL]: () => {
      calls.push({ method: 'GET', url: LIST_URL });
      return json({ bindings, count: bindings.length, timestamp: TIMESTAMP });
    },
    [`POST ${REVOKE_URL}`]: (init) => {
      const body = JSON.parse(String(init?.body)) as { bindingId: number };
      calls.push({ method: 'POST', url: REVOKE_URL, body });
      bindings = bindings.map((b) => (b.id === body.bindingId ? { ...b, status: 'REVOKED' } : b));
      return json({ success: true, binding: bindings.find((b) => b.id === body.bindingId) });
    },
  });
  return { calls, fetchMock };
}

function renderPage() {
  return renderAt(<HardwareBindingsPage />, '/admin/hardware-bindings');
}

/** The stat card titled `title` shows `value`. */
function expectStat(title: string, value: string): void {
  expect(within(screen.getByRole('group', { name: title })).getByText(value, { exact: true })).toBeTruthy();
}

function rowOf(text: string): HTMLElement {
  return screen.getByText(text).closest('tr')!;
}

/** The row of the binding whose hardware ID is `id` (shown cut in its middle, whole in its tooltip). */
function rowOfDevice(id: string): HTMLElement {
  return screen.getByTitle(id).closest('tr')!;
}

/** The device names of the binding rows on screen, top to bottom (the first table; resets follow it). */
function shownRows(): string[] {
  return within(screen.getAllByRole('table')[0] as HTMLElement)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td p')?.textContent ?? '');
}

async function choose(user: ReturnType<typeof userEvent.setup>, filter: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: filter }));
  await user.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('HardwareBindingsPage', () => {
  it('counts total, active, revoked bindings and distinct devices, with the answer time', async () => {
    fakeServer([phone, laptop, revokedPhone, orphan]);
    renderPage();
    await screen.findByText('Work Laptop');
    expectStat('Total Bindings', '4');
    expectStat('Active Bindings', '3');
    expectStat('Revoked Bindings', '1');
    // The phone is bound twice: three distinct hardware IDs.
    expectStat('Unique Devices', '3');
    expect(screen.getByText(`Last updated: ${formatDate(TIMESTAMP)}`)).toBeTruthy();
  });

  it('shows the device, hardware ID, shortened key with its type, status and dates', async () => {
    fakeServer([phone, revokedPhone, orphan]);
    renderPage();
    const row = within((await screen.findByText("Alice's Pixel")).closest('tr')!);
    expect(row.getByRole('img', { name: 'phone' })).toBeTruthy();
    expect(row.getByText('Android 15 · arm64')).toBeTruthy();
    expect(row.getByTitle('HWID-PHONE-0001').textContent).toBe('HWID-PHONE-0001');
    expect(row.getByText('SCAN-ABC...MNOP')).toBeTruthy();
    expect(row.getByText('PREMIUM')).toBeTruthy();
    expect(row.getByText('ACTIVE')).toBeTruthy();
    expect(row.getByText(/^Nov 20, 2026/)).toBeTruthy();
    expect(row.getByRole('button', { name: 'Revoke binding' })).toBeTruthy();

    const revoked = within(screen.getAllByText('Unknown Device')[0]!.closest('tr')!);
    expect(revoked.getByText('FREEKEY-...2222')).toBeTruthy();
    expect(revoked.getByText('REVOKED')).toBeTruthy();
    expect(revoked.getByText('Never')).toBeTruthy();
    // Revoke is offered on active bindings only.
    expect(revoked.queryByRole('button', { name: 'Revoke binding' })).toBeNull();

    expect(within(rowOfDevice('HWID-DESKTOP-0004')).getByText('N/A')).toBeTruthy();
  });

  it('says why a device has no name, what bound it, and shows its whole hardware ID, which it copies', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    const clientId = '6F9619FF-8B86-D011-B42D-00CF4FC964FF';
    const longId = `EXECUTOR-HWID-${'7F3A9C21'.repeat(8)}`;
    fakeServer([
      binding({ id: 6, hardwareId: clientId, deviceInfo: null }),
      binding({ id: 7, hardwareId: longId, deviceInfo: { os: 'Windows 11' } }),
    ]);
    renderPage();
    const byClientId = within(await screen.findByTitle(clientId).then((cell) => cell.closest('tr')!));
    const unknown = byClientId.getByText('Unknown Device');
    expect(unknown.getAttribute('title')).toBe('The executor sent no device name');
    expect(byClientId.getByText('Roblox client id').getAttribute('title')).toMatch(
      /no hardware id of its own/,
    );

    const byLongId = within(rowOfDevice(longId));
    expect(byLongId.getByText('Windows 11')).toBeTruthy();
    // Whole in the DOM (cut in its middle only by the column's width), its end always shown.
    expect(byLongId.getByTitle(longId).textContent).toBe(longId);
    expect(byLongId.getByText('7F3A9C21', { exact: true })).toBeTruthy();
    await user.click(byLongId.getByRole('button', { name: 'Copy hardware ID' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(longId));
  });

  it('searches device ID, name, OS and license key, ignoring case', async () => {
    const user = userEvent.setup();
    fakeServer([phone, laptop]);
    renderPage();
    await screen.findByText('Work Laptop');
    const search = screen.getByLabelText('Search');
    for (const [term, expected] of [
      ['hwid-laptop', ['Work Laptop']],
      ["alice's", ["Alice's Pixel"]],
      ['WINDOWS', ['Work Laptop']],
      ['scan-abcd', ["Alice's Pixel"]],
      ['hwid', ["Alice's Pixel", 'Work Laptop']],
    ] as const) {
      await user.clear(search);
      // Pasted in one go: typing character by character adds nothing here and is slow.
      await user.paste(term);
      await waitFor(() => expect(shownRows()).toEqual(expected));
    }
  });

  it('filters by status and license type, and says so when the filters hide everything', async () => {
    const user = userEvent.setup();
    fakeServer([phone, laptop, revokedPhone]);
    renderPage();
    await screen.findByText('Work Laptop');

    await choose(user, 'Status', 'REVOKED');
    expect(shownRows()).toEqual(['Unknown Device']);
    await choose(user, 'Status', 'All statuses');
    await choose(user, 'License Type', 'VIP');
    expect(shownRows()).toEqual(['Work Laptop']);

    await choose(user, 'Status', 'REVOKED');
    expect(screen.getByText('No hardware bindings found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filters.')).toBeTruthy();
    expect(screen.queryByText('No devices have been bound to license keys yet.')).toBeNull();
    // The figures count every binding, whatever the filters.
    expectStat('Total Bindings', '3');
  });

  it('counts a premium_24h key as PREMIUM in the license type filter', async () => {
    const user = userEvent.setup();
    fakeServer([
      phone,
      laptop,
      binding({
        id: 5,
        hardwareId: 'HWID-TAB',
        deviceInfo: { deviceName: 'Tablet', deviceType: 'tablet' },
        licenseKey: { licenseKey: 'DAYPASS-AAAA-BBBB-CCCC', keyType: 'premium_24h' },
      }),
    ]);
    renderPage();
    await screen.findByText('Work Laptop');
    await choose(user, 'License Type', 'PREMIUM');
    expect(shownRows()).toEqual(["Alice's Pixel", 'Tablet']);
  });

  it('says no device has been bound yet when there are no bindings at all', async () => {
    fakeServer([]);
    renderPage();
    expect(await screen.findByText('No devices have been bound to license keys yet.')).toBeTruthy();
    expect(screen.queryByText('No hardware bindings found')).toBeNull();
    expectStat('Total Bindings', '0');
  });

  it('revokes an active binding after a confirmation that says what it means', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([phone, laptop]);
    renderPage();
    await screen.findByText("Alice's Pixel");

    await user.click(within(rowOf("Alice's Pixel")).getByRole('button', { name: 'Revoke binding' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Revoke this hardware binding?')).toBeTruthy();
    expect(
      within(dialog).getByText(
        "Alice's Pixel will no longer be able to use license key SCAN-ABC...MNOP until it is bound again.",
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.click(within(rowOf("Alice's Pixel")).getByRole('button', { name: 'Revoke binding' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Binding' }));
    await waitFor(() => expect(within(rowOf("Alice's Pixel")).getByText('REVOKED')).toBeTruthy());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: REVOKE_URL, body: { bindingId: 1 } },
    ]);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Hardware binding revoked' }));
    expect(within(rowOf("Alice's Pixel")).queryByRole('button', { name: 'Revoke binding' })).toBeNull();
    expectStat('Revoked Bindings', '1');
  });

  it.each([
    {
      when: 'the server refuses it',
      revoke: () => json({ error: 'Hardware binding is already revoked' }, 409),
      description: 'Hardware binding is already revoked',
    },
    {
      when: 'the server cannot be reached',
      revoke: () => {
        throw new TypeError('Failed to fetch');
      },
      description: 'Failed to revoke hardware binding',
    },
  ])("says '$description' when $when", async ({ revoke, description }) => {
    const user = userEvent.setup();
    mockFetch({
      [LIST_URL]: () => json({ bindings: [phone], count: 1, timestamp: TIMESTAMP }),
      [`POST ${REVOKE_URL}`]: revoke,
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Revoke binding' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Binding' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({ title: 'Revocation failed', description, variant: 'destructive' }),
    );
  });

  it('asks to refresh the page when the bindings cannot be loaded', async () => {
    mockFetch({ [LIST_URL]: () => json({ error: 'database unavailable' }, 503) });
    renderPage();
    expect(
      await screen.findByText('Failed to load hardware bindings. Please try refreshing the page.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("lists the script keys' device resets, by buyer or admin, with IP and devices removed", async () => {
    mockFetch({
      [LIST_URL]: () =>
        json({
          bindings: [phone],
          resets: [
            {
              id: 7,
              scriptKey: 'SK-AAAAAAAA-BBBBBBBB-CCCCCCCC-1111',
              by: 'buyer',
              ipAddress: '203.0.113.9',
              removed: 2,
              resetAt: '2026-11-22T11:00:00.000Z',
            },
            {
              id: 6,
              scriptKey: 'SK-DDDDDDDD-EEEEEEEE-FFFFFFFF-2222',
              by: 'admin',
              ipAddress: null,
              removed: 0,
              resetAt: '2026-11-21T11:00:00.000Z',
            },
          ],
          count: 1,
          timestamp: TIMESTAMP,
        }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Device Resets' });
    const history = screen.getAllByRole('table')[1] as HTMLElement;
    const buyerRow = within(history).getByText('SK-AAAAA************1111').closest('tr') as HTMLElement;
    expect(within(buyerRow).getByText('Buyer (My key)')).toBeTruthy();
    expect(within(buyerRow).getByText('203.0.113.9')).toBeTruthy();
    expect(within(buyerRow).getByText('2')).toBeTruthy();
    // The date cell puts day and time on lines of their own.
    const when = formatDate('2026-11-22T11:00:00.000Z');
    const cut = when.lastIndexOf(', ');
    expect(buyerRow.textContent).toContain(when.slice(0, cut));
    expect(buyerRow.textContent).toContain(when.slice(cut + 2));
    const adminRow = within(history).getByText('SK-DDDDD************2222').closest('tr') as HTMLElement;
    expect(within(adminRow).getByText('Admin')).toBeTruthy();
    expect(within(adminRow).getByText('Unknown')).toBeTruthy();
  });

  it('says when no key was reset', async () => {
    fakeServer([phone]);
    renderPage();
    expect(await screen.findByText('No device resets in the last 30 days')).toBeTruthy();
  });
});
