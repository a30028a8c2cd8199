import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockClipboard, mockFetch } from '@/test/render.tsx';
import type { RedemptionKey } from '../../../../common/redemption.ts';
import { fieldMessage, renderAt } from '../shared/test-utils.tsx';
import RedemptionKeysPage from './redemption-keys.tsx';

vi.mock('@/lib/toast.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/toast.ts')>()),
  toast: vi.fn(),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

const LIST_URL = '/api/admin/redemption-keys';
const CREATE_URL = '/api/admin/create-redemption-key';

function code(overrides: Partial<RedemptionKey> = {}): RedemptionKey {
  return {
    id: 7,
    redemptionCode: 'SCANLINE-ABCD-EFGH-IJKL-MNOP',
    keyType: 'PREMIUM',
    isRedeemed: 0,
    redeemedAt: null,
    expiresAt: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    maxHardwareBindings: 3,
    validityDuration: 24,
    notes: 'for Alice',
    scriptKeyId: null,
    ...overrides,
  };
}

const redeemed = code({
  id: 8,
  redemptionCode: 'SCANLINE-RRRR-RRRR-RRRR-VIP1',
  keyType: 'VIP',
  isRedeemed: 1,
  redeemedAt: '2026-11-23T10:00:00.000Z',
  notes: 'for Bob',
  scriptKeyId: 3,
});
const expired = code({
  id: 9,
  redemptionCode: 'SCANLINE-EEEE-EEEE-EEEE-FREE',
  keyType: 'FREE',
  expiresAt: '2020-01-01T00:00:00.000Z',
  notes: 'for Carol',
});

/** A server holding `initial` codes, recording every call's method, path and JSON body. */
function fakeServer(initial: RedemptionKey[]) {
  let codes = [...initial];
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const record = (method: string, path: string, init?: RequestInit) =>
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const handlers: Parameters<typeof mockFetch>[0] = {
    [LIST_URL]: (init) => {
      record('GET', LIST_URL, init);
      return json({ redemptionKeys: codes, count: codes.length, timestamp: new Date().toISOString() });
    },
    [`POST ${CREATE_URL}`]: (init) => {
      record('POST', CREATE_URL, init);
      const body = JSON.parse(String(init?.body)) as Partial<RedemptionKey>;
      const created = code({
        id: 20,
        redemptionCode: 'SCANLINE-NEWC-ODEN-EWCO-ZZZZ',
        keyType: body.keyType,
        notes: body.notes ?? null,
      });
      codes = [created, ...codes];
      return json({ redemptionKey: created }, 201);
    },
  };
  for (const c of initial) {
    handlers[`DELETE ${LIST_URL}/${c.id}`] = (init) => {
      record('DELETE', `${LIST_URL}/${c.id}`, init);
      codes = codes.filter((other) => other.id !== c.id);
      return json({ success: true });
    };
  }
  mockFetch(handlers);
  return { calls, posts: () => calls.filter((c) => c.method === 'POST') };
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const shownRows = () => screen.getAllByRole('row').slice(1);

async function openCreateDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Create Redemption Code' }));
  return screen.findByRole('dialog', { name: 'Create Redemption Code' });
}

beforeEach(() => {
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RedemptionKeysPage', () => {
  it("says 'No redemption codes found' when there are none", async () => {
    fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    expect(await screen.findByText('No redemption codes found')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Redemption Codes' })).toBeTruthy();
    expect(screen.getByTestId('count-badge').textContent).toBe('0 codes');
  });

  it('shows the spec columns, each code masked 4+4 with its derived status', async () => {
    fakeServer([code(), redeemed, expired]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('for Alice');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Redemption Code',
      'Type',
      'Status',
      'Max Bindings',
      'Created',
      'Redeemed',
      'Actions',
    ]);

    const available = rowOf('for Alice');
    expect(within(available).getByTestId('redemption-code').textContent).toBe('SCAN************MNOP');
    expect(within(available).getByText('Available')).toBeTruthy();
    expect(within(available).getByText('PREMIUM')).toBeTruthy();
    expect(within(available).getByText('3')).toBeTruthy();
    expect(within(available).getByText('Never')).toBeTruthy();

    const used = rowOf('for Bob');
    expect(within(used).getByText('Redeemed')).toBeTruthy();
    expect(within(used).queryByText('Never')).toBeNull();
    expect(within(rowOf('for Carol')).getByText('Expired')).toBeTruthy();
    expect(screen.getByTestId('count-badge').textContent).toBe('3 codes');
  });

  it('reveals and hides one code at a time and copies the whole code', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    fakeServer([code(), redeemed]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('for Alice');
    const alice = rowOf('for Alice');
    const aliceCode = within(alice).getByTestId('redemption-code');

    await user.click(within(alice).getByRole('button', { name: 'Reveal code' }));
    expect(aliceCode.textContent).toBe('SCANLINE-ABCD-EFGH-IJKL-MNOP');
    expect(within(rowOf('for Bob')).getByTestId('redemption-code').textContent).toBe('SCAN************VIP1');
    await user.click(within(alice).getByRole('button', { name: 'Hide code' }));
    expect(aliceCode.textContent).toBe('SCAN************MNOP');

    await user.click(within(alice).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('SCANLINE-ABCD-EFGH-IJKL-MNOP');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Copied to clipboard' }));
  });

  it("says 'Failed to copy' when the clipboard refuses", async () => {
    const user = userEvent.setup();
    mockClipboard().mockRejectedValue(new Error('denied'));
    fakeServer([code()]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await user.click(await screen.findByRole('button', { name: 'Copy code' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Failed to copy',
        description: 'Could not copy to clipboard',
        variant: 'destructive',
      }),
    );
  });

  it('searches code and type case-insensitively and counts what is left', async () => {
    const user = userEvent.setup();
    fakeServer([code(), redeemed, expired]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('for Alice');
    const search = screen.getByLabelText('Search redemption codes');

    await user.type(search, 'abcd-efgh');
    expect(shownRows().map((r) => r.getAttribute('data-code-id'))).toEqual(['7']);
    expect(screen.getByTestId('count-badge').textContent).toBe('1 code');

    await user.clear(search);
    await user.type(search, 'vip');
    expect(shownRows().map((r) => r.getAttribute('data-code-id'))).toEqual(['8']);

    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(screen.getByText('No redemption codes found')).toBeTruthy();
    expect(screen.getByTestId('count-badge').textContent).toBe('0 codes');
  });

  it('filters by status (an expired code is not available) and by type', async () => {
    const user = userEvent.setup();
    fakeServer([code(), redeemed, expired]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('for Alice');
    const choose = async (option: string) => {
      await user.click(screen.getByRole('combobox', { name: 'Filter codes' }));
      await user.click(await screen.findByRole('option', { name: option }));
    };
    const ids = () => shownRows().map((r) => r.getAttribute('data-code-id'));

    await user.click(screen.getByRole('combobox', { name: 'Filter codes' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All codes',
      'Available',
      'Redeemed',
      'FREE',
      'PREMIUM',
      'VIP',
    ]);
    await user.keyboard('{Escape}');

    await choose('Available');
    expect(ids()).toEqual(['7']);
    await choose('Redeemed');
    expect(ids()).toEqual(['8']);
    await choose('FREE');
    expect(ids()).toEqual(['9']);
    await choose('All codes');
    expect(ids()).toEqual(['7', '8', '9']);
  });

  it('creates a PREMIUM code with 1 binding, 24 hours and no expiry by default, then lists it', async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('No redemption codes found');
    const dialog = await openCreateDialog(user);
    expect(within(dialog).getByRole('combobox', { name: 'Key Type' }).textContent).toBe(
      'PREMIUM — full features',
    );
    expect((within(dialog).getByLabelText('Max Hardware Bindings') as HTMLInputElement).value).toBe('1');
    expect((within(dialog).getByLabelText('Validity (hours)') as HTMLInputElement).value).toBe('24');
    expect((within(dialog).getByLabelText('Code Expires At (optional)') as HTMLInputElement).value).toBe('');

    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    await waitFor(() =>
      expect(posts().map((c) => c.body)).toEqual([
        { keyType: 'PREMIUM', expiresAt: null, maxHardwareBindings: 1, validityDuration: 24, notes: null },
      ]),
    );
    expect(toast).toHaveBeenCalledWith({
      title: 'Redemption code created',
      description: 'New PREMIUM code ready. It works with the game script.',
    });
    expect(await screen.findByText('SCAN************ZZZZ')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends the chosen type, limits, expiry (as ISO) and notes', async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const dialog = await openCreateDialog(user);
    await user.click(within(dialog).getByRole('combobox', { name: 'Key Type' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'FREE — basic access',
      'PREMIUM — full features',
      'VIP — premium features',
    ]);
    await user.click(screen.getByRole('option', { name: 'VIP — premium features' }));
    const bindings = within(dialog).getByLabelText('Max Hardware Bindings');
    await user.clear(bindings);
    await user.type(bindings, '10');
    const validity = within(dialog).getByLabelText('Validity (hours)');
    await user.clear(validity);
    await user.type(validity, '720');
    fireEvent.change(within(dialog).getByLabelText('Code Expires At (optional)'), {
      target: { value: '2030-01-02T03:04' },
    });
    await user.type(within(dialog).getByLabelText('Notes (optional)'), '  order 42 ');
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));

    await waitFor(() =>
      expect(posts().map((c) => c.body)).toEqual([
        {
          keyType: 'VIP',
          expiresAt: new Date('2030-01-02T03:04').toISOString(),
          maxHardwareBindings: 10,
          validityDuration: 720,
          notes: 'order 42',
        },
      ]),
    );
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Redemption code created',
        description: expect.stringContaining('VIP'),
      }),
    );
  });

  it('reads unparsable numbers as the defaults 1 and 24', async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const dialog = await openCreateDialog(user);
    await user.clear(within(dialog).getByLabelText('Max Hardware Bindings'));
    await user.clear(within(dialog).getByLabelText('Validity (hours)'));
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    await waitFor(() =>
      expect(posts()[0]?.body).toMatchObject({ maxHardwareBindings: 1, validityDuration: 24 }),
    );
  });

  it.each([
    ['Max Hardware Bindings', '0', 'Number must be greater than or equal to 1'],
    ['Max Hardware Bindings', '11', 'Number must be less than or equal to 10'],
    ['Validity (hours)', '0', 'Number must be greater than or equal to 1'],
    ['Validity (hours)', '721', 'Number must be less than or equal to 720'],
  ])('refuses %s = %s with "%s" and sends nothing', async (field, value, message) => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const dialog = await openCreateDialog(user);
    const input = within(dialog).getByLabelText(field);
    await user.clear(input);
    await user.type(input, value);
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(posts()).toEqual([]);
  });

  it("refuses an expiry in the past beside its field, in the form's words, and sends nothing", async () => {
    const user = userEvent.setup();
    const { posts } = fakeServer([]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const dialog = await openCreateDialog(user);
    fireEvent.change(within(dialog).getByLabelText('Code Expires At (optional)'), {
      target: { value: '2020-01-02T03:04' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'Code Expires At (optional)')).toBe('The expiry must be in the future'),
    );
    expect(posts()).toEqual([]);
  });

  it("shows the server's message when creating fails, and the spec's default when it gave none", async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST_URL]: () => json({ redemptionKeys: [], count: 0, timestamp: '' }),
      [`POST ${CREATE_URL}`]: () => json({ error: 'expiresAt must be in the future' }, 400),
    });
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const dialog = await openCreateDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Error creating redemption code',
        description: 'expiresAt must be in the future',
        variant: 'destructive',
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Create Redemption Code' })).toBeTruthy();
    // Beside the field it names too, not only in the toast.
    expect(fieldMessage(dialog, 'Code Expires At (optional)')).toBe('expiresAt must be in the future');

    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await user.click(within(dialog).getByRole('button', { name: 'Create Code' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Error creating redemption code',
        description: 'Failed to create redemption code',
        variant: 'destructive',
      }),
    );
  });

  it('deletes a code only after confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = fakeServer([code(), redeemed]);
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await screen.findByText('for Alice');
    const deletes = () => calls.filter((c) => c.method === 'DELETE');

    await user.click(within(rowOf('for Alice')).getByRole('button', { name: 'Delete code' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this redemption code?' });
    expect(within(confirm).getByText(/SCAN\*{12}MNOP is removed for good/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes()).toEqual([]);
    expect(screen.getByText('for Alice')).toBeTruthy();

    await user.click(within(rowOf('for Alice')).getByRole('button', { name: 'Delete code' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Code' }));
    await waitFor(() => expect(screen.queryByText('for Alice')).toBeNull());
    expect(deletes().map((c) => c.path)).toEqual([`${LIST_URL}/7`]);
    expect(toast).toHaveBeenCalledWith({ title: 'Redemption code deleted' });
    expect(screen.getByText('for Bob')).toBeTruthy();
  });

  it('says why a delete failed', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      [LIST_URL]: () => json({ redemptionKeys: [code()], count: 1, timestamp: '' }),
      [`DELETE ${LIST_URL}/7`]: () => json({ error: 'Redemption code not found' }, 404),
    });
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    await user.click(await screen.findByRole('button', { name: 'Delete code' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Code' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Error deleting redemption code',
        description: 'Redemption code not found',
        variant: 'destructive',
      }),
    );

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await user.click(screen.getByRole('button', { name: 'Delete code' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Code' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Error deleting redemption code',
        description: 'Failed to delete redemption code',
        variant: 'destructive',
      }),
    );
  });

  it("shows 'Error loading redemption codes' with the message when the list cannot load", async () => {
    mockFetch({ [LIST_URL]: () => json({ error: 'Database unavailable' }, 503) });
    renderAt(<RedemptionKeysPage />, '/admin/redemption-keys');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error loading redemption codes')).toBeTruthy();
    expect(within(alert).getByText('Failed to fetch redemption keys: Database unavailable')).toBeTruthy();
    expect(screen.queryByText('No redemption codes found')).toBeNull();
  });
});
