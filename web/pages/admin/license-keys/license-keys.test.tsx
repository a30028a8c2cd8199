import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import type { LicenseKey } from '../../../../common/licensing.ts';
import { fieldMessage, renderAt } from '../shared/test-utils.tsx';
import LicenseKeysPage from './license-keys.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/clipboard.ts', () => ({ copyToClipboard: vi.fn(async () => true) }));

const URL_BASE = '/api/admin/license-keys';

function licenseKey(overrides: Partial<LicenseKey> = {}): LicenseKey {
  return {
    id: 7,
    licenseKey: 'SCAN-ABCD-EFGH-IJKL-MNOP',
    keyType: 'PREMIUM',
    status: 'ACTIVE',
    maxBindings: 3,
    activeBindings: 1,
    usageCount: 12,
    lastUsed: null,
    expiresAt: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    revokedAt: null,
    notes: 'for Alice',
    ...overrides,
  };
}

/** A server holding `keys`, recording every call's method, URL and body. */
function fakeServer(initial: LicenseKey[]) {
  let keys = [...initial];
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET' && url.startsWith(`${URL_BASE}?`)) {
      const search = new URL(url, 'http://x').searchParams.get('search') ?? '';
      const found = keys.filter((k) => k.licenseKey.includes(search) || k.notes?.includes(search));
      return json({ licenseKeys: found, count: found.length, timestamp: new Date().toISOString() });
    }
    if (method === 'POST' && url === URL_BASE) {
      const created = licenseKey({ id: 8, licenseKey: 'SCAN-NEWK-EYNE-WKEY-ZZZZ', notes: null });
      keys = [created, ...keys];
      return json({ licenseKey: created }, 201);
    }
    const revoke = url.match(/\/(\d+)\/revoke$/);
    if (method === 'POST' && revoke) {
      keys = keys.map((k) => (k.id === Number(revoke[1]) ? { ...k, status: 'REVOKED' } : k));
      return json({ licenseKey: keys.find((k) => k.id === Number(revoke[1])) });
    }
    if (method === 'DELETE') {
      keys = keys.filter((k) => !url.endsWith(`/${k.id}`));
      return json({ success: true });
    }
    return json({ error: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
  vi.mocked(copyToClipboard).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LicenseKeysPage', () => {
  it("says 'No license keys found' when there are none", async () => {
    mockFetch({ [URL_BASE]: () => json({ licenseKeys: [], count: 0, timestamp: '' }) });
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    expect(await screen.findByText('No license keys found')).toBeTruthy();
  });

  it('masks keys, reveals one on demand and copies the full key', async () => {
    const user = userEvent.setup();
    fakeServer([licenseKey()]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    const row = (await screen.findByText('for Alice')).closest('tr')!;
    const key = within(row).getByTestId('license-key');
    expect(key.textContent).toBe('SCAN-ABC************MNOP');
    expect(within(row).getByText('1/3')).toBeTruthy();
    expect(within(row).getAllByText('Never')).toHaveLength(2);

    await user.click(within(row).getByRole('button', { name: 'Reveal key' }));
    expect(key.textContent).toBe('SCAN-ABCD-EFGH-IJKL-MNOP');
    await user.click(within(row).getByRole('button', { name: 'Hide key' }));
    expect(key.textContent).toBe('SCAN-ABC************MNOP');

    await user.click(within(row).getByRole('button', { name: 'Copy key' }));
    expect(copyToClipboard).toHaveBeenCalledWith('SCAN-ABCD-EFGH-IJKL-MNOP', expect.any(String));
  });

  it('creates a PREMIUM key with one binding by default and lists it', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    await screen.findByText('No license keys found');

    await user.click(screen.getByRole('button', { name: 'Generate Key' }));
    await user.click(await screen.findByRole('button', { name: 'Create Key' }));

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        keyType: 'PREMIUM',
        maxBindings: 1,
        expiresAt: null,
        notes: null,
      }),
    );
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'License key created' }));
    expect(await screen.findByText('SCAN-NEW************ZZZZ')).toBeTruthy();
  });

  it('refuses a binding limit outside 1 to 10', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    await user.click(await screen.findByRole('button', { name: 'Generate Key' }));
    const field = await screen.findByLabelText('Max Hardware Bindings');
    await user.clear(field);
    await user.type(field, '11');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByText('Max bindings must be a whole number from 1 to 10')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("refuses an expiry in the past beside its field before sending, and shows the server's refusal there too", async () => {
    const user = userEvent.setup();
    const { calls, fetchMock } = fakeServer([]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    await user.click(await screen.findByRole('button', { name: 'Generate Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate License Key' });
    fireEvent.change(within(dialog).getByLabelText('Expires At (optional)'), {
      target: { value: '2020-01-02T03:04' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'Expires At (optional)')).toBe('The expiry must be in the future'),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    // Ahead when sent, past by the time the server read it: its text, beside the field it names.
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      init?.method === 'POST' ? json({ error: 'expiresAt must be in the future' }, 400) : answer(input, init),
    );
    fireEvent.change(within(dialog).getByLabelText('Expires At (optional)'), {
      target: { value: '2099-01-02T03:04' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'Expires At (optional)')).toBe('expiresAt must be in the future'),
    );
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({ description: 'expiresAt must be in the future', variant: 'destructive' }),
    );
  });

  it('revokes after confirmation, then deletes after confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([licenseKey()]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    const row = () => screen.getByText('for Alice').closest('tr')!;
    await screen.findByText('for Alice');

    await user.click(within(row()).getByRole('button', { name: 'Revoke key' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Key' }));
    await waitFor(() => expect(within(row()).getByText('REVOKED')).toBeTruthy());
    expect(calls.some((c) => c.method === 'POST' && c.url === `${URL_BASE}/7/revoke`)).toBe(true);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'License key revoked' }));
    expect(within(row()).queryByRole('button', { name: 'Revoke key' })).toBeNull();

    await user.click(within(row()).getByRole('button', { name: 'Delete key' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Key' }));
    expect(await screen.findByText('No license keys found')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `${URL_BASE}/7`)).toBe(true);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'License key deleted' }));
  });

  it("shows the server's message when a revoke fails", async () => {
    const user = userEvent.setup();
    mockFetch({
      [URL_BASE]: () => json({ licenseKeys: [licenseKey()], count: 1, timestamp: '' }),
      [`POST ${URL_BASE}/7/revoke`]: () => json({ error: 'License key is already revoked' }, 409),
    });
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    await user.click(await screen.findByRole('button', { name: 'Revoke key' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Key' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Revocation failed',
        description: 'License key is already revoked',
        variant: 'destructive',
      }),
    );
  });

  it('searches on the server once typing pauses', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([
      licenseKey(),
      licenseKey({ id: 9, licenseKey: 'SCAN-ZZZZ-ZZZZ-ZZZZ-ZZZZ', notes: 'Bob' }),
    ]);
    renderAt(<LicenseKeysPage />, '/admin/license-keys');
    await screen.findByText('Bob');
    await user.type(screen.getByLabelText('Search license keys'), 'Alice');
    await waitFor(() => expect(screen.queryByText('Bob')).toBeNull());
    const searches = calls.filter((c) => c.url.includes('search='));
    expect(searches.map((c) => c.url)).toEqual([`${URL_BASE}?status=all&search=Alice`]);
  });
});
