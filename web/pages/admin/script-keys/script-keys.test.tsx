import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockClipboard, mockFetch } from '@/test/render.tsx';
import type { KeySharingResponse, ScriptKey } from '../../../../common/script-keys.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { KEY_SHARING_PANEL_TEXTS } from './key-sharing-panel.tsx';
import ScriptKeysPage from './script-keys.tsx';

vi.mock('@/lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/toast.ts')>()),
  toast: vi.fn(),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

const LIST_URL = '/api/admin/script-keys/list';
const CREATE_URL = '/api/admin/script-keys/create';
const TOGGLE_URL = '/api/admin/script-keys/toggle-status';
const DELETE_URL = '/api/admin/script-keys/delete';
const GRANT_URL = (id: number) => `/api/admin/script-keys/${id}/grant-resets`;
const SHARING_URL = '/api/admin/script-keys/sharing';

/** The key-sharing answer: no key flagged unless given, with the default settings. */
function sharingAnswer(overrides: Partial<KeySharingResponse> = {}): KeySharingResponse {
  return {
    keys: [],
    windowHours: 24,
    addressThreshold: 5,
    networkThreshold: 3,
    autoDisable: false,
    timestamp: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

function scriptKey(overrides: Partial<ScriptKey> = {}): ScriptKey {
  return {
    id: 1,
    scriptKey: 'SK-AAAAAAAA-BBBBBBBB-CCCCCCCC-1111',
    scriptType: 'PREMIUM',
    isActive: 1,
    usageCount: 1234,
    lastUsed: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    expiresAt: null,
    licenseKeyId: null,
    redemptionKeyId: null,
    notes: 'active premium',
    maxHardwareBindings: 1,
    activeBindings: 0,
    disabledReason: null,
    discordUserId: null,
    ...overrides,
  };
}

const KEYS: ScriptKey[] = [
  scriptKey(),
  scriptKey({
    id: 2,
    scriptKey: 'SK-FREEFREE-00000000-00000000-2222',
    scriptType: 'FREE',
    isActive: 0,
    usageCount: 0,
    notes: 'switched off free',
  }),
  scriptKey({
    id: 3,
    scriptKey: 'SK-VIPVIPVI-00000000-00000000-3333',
    scriptType: 'VIP',
    isActive: 1,
    lastUsed: '2026-11-23T10:00:00.000Z',
    expiresAt: '2020-01-01T00:00:00.000Z',
    notes: 'expired vip',
    discordUserId: '2200000000000000003',
  }),
  scriptKey({
    id: 4,
    scriptKey: 'SK-DAYPASS0-00000000-00000000-4444',
    scriptType: 'premium_24h',
    expiresAt: '2099-01-01T00:00:00.000Z',
    notes: 'day pass',
  }),
];

/** A server holding `initial` keys, recording every call's method, path and JSON body. */
function fakeServer(initial: ScriptKey[], sharing: KeySharingResponse = sharingAnswer()) {
  let keys = [...initial];
  const calls: { method: string; path: string; body?: Record<string, unknown> }[] = [];
  const record = (method: string, path: string, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    calls.push({ method, path, body });
    return body;
  };
  const fetchMock = mockFetch({
    [LIST_URL]: () => json({ scriptKeys: keys, count: keys.length, timestamp: new Date().toISOString() }),
    [SHARING_URL]: () => json(sharing),
    [`POST ${CREATE_URL}`]: (init) => {
      const body = record('POST', CREATE_URL, init) as Partial<ScriptKey>;
      const created = scriptKey({
        id: 9,
        scriptKey: 'SK-NEWKEYNE-00000000-00000000-9999',
        scriptType: body.scriptType,
        usageCount: 0,
        notes: 'new key',
      });
      keys = [created, ...keys];
      return json({ scriptKey: created }, 201);
    },
    [`POST ${TOGGLE_URL}`]: (init) => {
      const { keyId } = record('POST', TOGGLE_URL, init) as { keyId: number };
      keys = keys.map((k) => (k.id === keyId ? { ...k, isActive: k.isActive === 1 ? 0 : 1 } : k));
      const toggled = keys.find((k) => k.id === keyId);
      return json({
        message: toggled?.isActive === 1 ? 'Script key activated' : 'Script key deactivated',
        scriptKey: toggled,
      });
    },
    [`POST ${GRANT_URL(4)}`]: (init) => {
      const { count } = record('POST', GRANT_URL(4), init) as { count: number };
      keys = keys.map((k) => (k.id === 4 ? { ...k, extraResets: count } : k));
      return json({ scriptKey: keys.find((k) => k.id === 4) });
    },
    [`DELETE ${DELETE_URL}`]: (init) => {
      const { keyId } = record('DELETE', DELETE_URL, init) as { keyId: number };
      keys = keys.filter((k) => k.id !== keyId);
      return json({ message: 'Script key deleted' });
    },
  });
  return { calls, fetchMock, posts: () => calls.filter((c) => c.path === CREATE_URL) };
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const shownIds = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.getAttribute('data-key-id'));
const statValue = (title: string) =>
  within(screen.getByRole('group', { name: title })).getByText(/^\d+$/).textContent;

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Create Script Key' }));
  return screen.findByRole('dialog', { name: 'Create Script Key' });
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ScriptKeysPage', () => {
  it("says 'No script keys found' when there are none, with zero counts", async () => {
    fakeServer([]);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    expect(await screen.findByText('No script keys found')).toBeTruthy();
    expect(statValue('Total Keys')).toBe('0');
    expect(statValue('Premium Keys')).toBe('0');
  });

  it('counts total, active, inactive and premium keys (every type but FREE)', async () => {
    fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    expect(statValue('Total Keys')).toBe('4');
    expect(statValue('Active Keys')).toBe('2');
    expect(statValue('Inactive Keys')).toBe('1');
    expect(statValue('Premium Keys')).toBe('3');
    expect(within(screen.getByRole('group', { name: 'Total Keys' })).getByText('1 expired')).toBeTruthy();
  });

  it('shows each key masked 8+4 with type, status (Expired first), usage and dates', async () => {
    fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    const active = rowOf('active premium');
    expect(within(active).getByTestId('script-key').textContent).toBe('SK-AAAAA************1111');
    expect(within(active).getByText('Premium')).toBeTruthy();
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText('1,234')).toBeTruthy();
    // Never used and never expires.
    expect(within(active).getAllByText('Never')).toHaveLength(2);

    expect(within(rowOf('switched off free')).getByText('Inactive')).toBeTruthy();
    const expired = rowOf('expired vip');
    expect(within(expired).getByText('Expired')).toBeTruthy();
    expect(within(expired).getByRole('switch', { name: 'Key active' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(within(expired).queryByText('Never')).toBeNull();
    expect(within(rowOf('day pass')).getByText('Premium 24h')).toBeTruthy();
  });

  it('reveals a key on demand and copies the whole key', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    const row = rowOf('active premium');
    await user.click(within(row).getByRole('button', { name: 'Reveal key' }));
    expect(within(row).getByTestId('script-key').textContent).toBe('SK-AAAAAAAA-BBBBBBBB-CCCCCCCC-1111');
    await user.click(within(row).getByRole('button', { name: 'Hide key' }));
    expect(within(row).getByTestId('script-key').textContent).toBe('SK-AAAAA************1111');
    await user.click(within(row).getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith('SK-AAAAAAAA-BBBBBBBB-CCCCCCCC-1111');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Copied to clipboard' }));
  });

  it('searches and filters by status and type', async () => {
    const user = userEvent.setup();
    fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    const choose = async (filter: string, option: string) => {
      await user.click(screen.getByRole('combobox', { name: filter }));
      await user.click(await screen.findByRole('option', { name: option }));
    };

    await user.type(screen.getByLabelText('Search script keys'), 'vipvip');
    expect(shownIds()).toEqual(['3']);
    await user.clear(screen.getByLabelText('Search script keys'));
    // The Discord user a key is linked to is shown on its row and found by its id.
    await user.type(screen.getByLabelText('Search script keys'), '2200000000000000003');
    expect(shownIds()).toEqual(['3']);
    expect(screen.getByTestId('discord-user').textContent).toBe('2200000000000000003');
    await user.clear(screen.getByLabelText('Search script keys'));

    await choose('Filter by status', 'Active');
    expect(shownIds()).toEqual(['1', '4']);
    await choose('Filter by status', 'Inactive');
    expect(shownIds()).toEqual(['2']);
    await choose('Filter by status', 'All statuses');

    await user.click(screen.getByRole('combobox', { name: 'Filter by type' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All types',
      'Free',
      'Premium',
      'VIP',
      'Premium 24h',
    ]);
    await user.click(screen.getByRole('option', { name: 'Premium 24h' }));
    expect(shownIds()).toEqual(['4']);
    await choose('Filter by status', 'Inactive');
    expect(screen.getByText('No script keys found')).toBeTruthy();
    // The cards count every key, not what the filters leave.
    expect(statValue('Total Keys')).toBe('4');
  });

  it('switches a key off and on through toggle-status', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');

    await user.click(within(rowOf('active premium')).getByRole('switch', { name: 'Key active' }));
    await waitFor(() => expect(within(rowOf('active premium')).getByText('Inactive')).toBeTruthy());
    expect(toast).toHaveBeenCalledWith({ title: 'Status updated', description: 'Script key deactivated' });
    expect(statValue('Inactive Keys')).toBe('2');

    await user.click(within(rowOf('active premium')).getByRole('switch', { name: 'Key active' }));
    await waitFor(() => expect(within(rowOf('active premium')).getByText('Active')).toBeTruthy());
    expect(calls.filter((c) => c.path === TOGGLE_URL).map((c) => c.body)).toEqual([
      { keyId: 1 },
      { keyId: 1 },
    ]);
  });

  it("says 'Status update failed' with the server's reason", async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST_URL]: () => json({ scriptKeys: KEYS, count: KEYS.length, timestamp: '' }),
      [`POST ${TOGGLE_URL}`]: () => json({ error: 'Script key not found' }, 404),
    });
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    await user.click(within(rowOf('active premium')).getByRole('switch', { name: 'Key active' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Status update failed',
        description: 'Script key not found',
        variant: 'destructive',
      }),
    );
    expect(within(rowOf('active premium')).getByText('Active')).toBeTruthy();
  });

  it('deletes a key only after confirmation, sending its id in the body', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    const deletes = () => calls.filter((c) => c.path === DELETE_URL);

    await user.click(within(rowOf('day pass')).getByRole('button', { name: 'Delete key' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this script key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes()).toEqual([]);

    await user.click(within(rowOf('day pass')).getByRole('button', { name: 'Delete key' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Key' }));
    await waitFor(() => expect(screen.queryByText('day pass')).toBeNull());
    expect(deletes()).toEqual([{ method: 'DELETE', path: DELETE_URL, body: { keyId: 4 } }]);
    expect(toast).toHaveBeenCalledWith({ title: 'Script key deleted' });
    expect(statValue('Total Keys')).toBe('3');
  });

  it('grants a key extra resets from a count of 1 to 10, then shows them on its row', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer(KEYS);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    const grants = () => calls.filter((c) => c.path === GRANT_URL(4));

    await user.click(within(rowOf('day pass')).getByRole('button', { name: 'Grant resets' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Grant device resets' });
    const field = within(dialog).getByLabelText('Resets to grant');
    expect((field as HTMLInputElement).value).toBe('1');
    await user.clear(field);
    await user.type(field, '11');
    expect((within(dialog).getByRole('button', { name: 'Grant' }) as HTMLButtonElement).disabled).toBe(true);
    await user.clear(field);
    await user.type(field, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));

    await waitFor(() =>
      expect(grants()).toEqual([{ method: 'POST', path: GRANT_URL(4), body: { count: 2 } }]),
    );
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Resets granted',
        description: 'SK-DAYPA************4444 now has 2 extra resets.',
      }),
    );
    expect(await within(rowOf('day pass')).findByText('2 extra resets')).toBeTruthy();
  });

  it("says 'Deletion failed' with the server's reason", async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST_URL]: () => json({ scriptKeys: KEYS, count: KEYS.length, timestamp: '' }),
      [`DELETE ${DELETE_URL}`]: () => json({ error: 'Script key not found' }, 404),
    });
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('day pass');
    await user.click(within(rowOf('day pass')).getByRole('button', { name: 'Delete key' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Key' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Deletion failed',
        description: 'Script key not found',
        variant: 'destructive',
      }),
    );
    expect(screen.getByText('day pass')).toBeTruthy();
  });

  it('creates an active PREMIUM key by default with the spec payload and lists it', async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    await screen.findByText('No script keys found');
    const dialog = await openCreateDialog(user);
    expect(within(dialog).getByRole('combobox', { name: 'Script Type' }).textContent).toBe('Premium');
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));

    await waitFor(() =>
      expect(posts().map((c) => c.body)).toEqual([
        {
          licenseKeyId: null,
          redemptionKeyId: null,
          scriptType: 'PREMIUM',
          expiresAt: null,
          isActive: 1,
          maxHardwareBindings: 1,
          notes: null,
        },
      ]),
    );
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Script key created' }));
    expect(await screen.findByText('new key')).toBeTruthy();
    expect(statValue('Total Keys')).toBe('1');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  // Picking the license key and redemption code: create-script-key-dialog.test.tsx.
  it('sends the chosen type, binding limit and notes', async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    const dialog = await openCreateDialog(user);
    await user.click(within(dialog).getByRole('combobox', { name: 'Script Type' }));
    await user.click(await screen.findByRole('option', { name: 'Premium 24h' }));
    const bindings = within(dialog).getByLabelText('Max Hardware Bindings');
    await user.clear(bindings);
    await user.type(bindings, '3');
    await user.type(within(dialog).getByLabelText('Notes (optional)'), 'for Dana');
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(posts()[0]?.body).toEqual({
        licenseKeyId: null,
        redemptionKeyId: null,
        scriptType: 'premium_24h',
        expiresAt: null,
        isActive: 1,
        maxHardwareBindings: 3,
        notes: 'for Dana',
      }),
    );
  });

  it.each([
    ['Max Hardware Bindings', '11', 'Number must be less than or equal to 10'],
    ['Max Hardware Bindings', '0', 'Number must be greater than or equal to 1'],
  ])('refuses %s = %s with "%s" and sends nothing', async (field, value, message) => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    const dialog = await openCreateDialog(user);
    const input = within(dialog).getByLabelText(field);
    await user.clear(input);
    await user.type(input, value);
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(posts()).toEqual([]);
  });

  it("says 'Creation failed' with the server's reason, or 'Failed to create script key'", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [LIST_URL]: () => json({ scriptKeys: [], count: 0, timestamp: '' }),
      [`POST ${CREATE_URL}`]: () => json({ error: 'licenseKeyId: no license key with that id' }, 404),
    });
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    const dialog = await openCreateDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Creation failed',
        description: 'licenseKeyId: no license key with that id',
        variant: 'destructive',
      }),
    );

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Creation failed',
        description: 'Failed to create script key',
        variant: 'destructive',
      }),
    );
  });

  it('says the keys could not load, in the words of the spec', async () => {
    mockFetch({ [LIST_URL]: () => json({ error: 'Database unavailable' }, 503) });
    renderAt(<ScriptKeysPage />, '/admin/script-keys');
    expect(
      await screen.findByText('Failed to load script keys. Please try refreshing the page.'),
    ).toBeTruthy();
    expect(screen.queryByText('No script keys found')).toBeNull();
  });

  describe('key sharing', () => {
    it('says no key is flagged, and what the thresholds are', async () => {
      fakeServer(KEYS);
      renderAt(<ScriptKeysPage />, '/admin/script-keys');
      const panel = await screen.findByTestId('key-sharing');
      expect(await within(panel).findByText(KEY_SHARING_PANEL_TEXTS.empty)).toBeTruthy();
      expect(
        within(panel).getByText(
          `Keys used from more than 5 addresses or 3 networks (IPv4 /24, IPv6 /48) in the last 24 hours. ${KEY_SHARING_PANEL_TEXTS.flagOnly}`,
        ),
      ).toBeTruthy();
    });

    it('lists a flagged key with its addresses, networks, reason and latest uses', async () => {
      const reason =
        'it was used from 25 addresses in 25 networks within 24 hours, which looks like a shared key. Ask the seller to switch it back on';
      const flagged = {
        id: 1,
        scriptKey: 'SK-AAAAAAAA-BBBBBBBB-CCCCCCCC-1111',
        scriptType: 'PREMIUM' as const,
        isActive: 0 as const,
        disabledReason: reason,
        addresses: 25,
        networks: 25,
        lastSeen: '2026-11-23T09:59:00.000Z',
        uses: [
          {
            address: '198.51.24.7',
            network: '198.51.24.0/24',
            firstSeen: '2026-11-23T09:59:00.000Z',
            lastSeen: '2026-11-23T09:59:00.000Z',
          },
        ],
      };
      fakeServer(
        KEYS.map((k) => (k.id === 1 ? { ...k, isActive: 0 as const, disabledReason: reason } : k)),
        sharingAnswer({ keys: [flagged], autoDisable: true }),
      );
      renderAt(<ScriptKeysPage />, '/admin/script-keys');
      const panel = await screen.findByTestId('key-sharing');
      const item = await within(panel).findByText('25 addresses · 25 networks');
      const entry = item.closest('li') as HTMLElement;
      expect(within(entry).getByText('SK-AAAAA************1111')).toBeTruthy();
      expect(within(entry).getByText('Switched off')).toBeTruthy();
      expect(within(entry).getByText(`Switched off automatically: ${reason}.`)).toBeTruthy();
      expect(within(entry).getByText('198.51.24.7')).toBeTruthy();
      expect(within(entry).getByText('198.51.24.0/24')).toBeTruthy();
      expect(within(panel).getByText(/switched off at once, and its buyer is told why/)).toBeTruthy();
      // The key's row in the list says why it is off too.
      expect(
        within(rowOf('active premium')).getByText(`Switched off automatically: ${reason}.`),
      ).toBeTruthy();
    });
  });
});
