import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import type { LicenseKey } from '../../../../common/licensing.ts';
import type { RedemptionKey } from '../../../../common/redemption.ts';
import { fieldMessage, renderAt } from '../shared/test-utils.tsx';
import { CreateScriptKeyDialog } from './create-script-key-dialog.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));

const CREATE_URL = '/api/admin/script-keys/create';

function licenseKey(overrides: Partial<LicenseKey>): LicenseKey {
  return {
    id: 1,
    licenseKey: 'LK-AAAA-BBBB-CCCC-DDDD',
    keyType: 'PREMIUM',
    status: 'ACTIVE',
    maxBindings: 1,
    activeBindings: 0,
    usageCount: 0,
    lastUsed: null,
    expiresAt: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    revokedAt: null,
    notes: null,
    ...overrides,
  };
}

function code(overrides: Partial<RedemptionKey>): RedemptionKey {
  return {
    id: 1,
    redemptionCode: 'SCAN-1111-2222-3333',
    keyType: 'PREMIUM',
    isRedeemed: 0,
    redeemedAt: null,
    expiresAt: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    maxHardwareBindings: 1,
    validityDuration: 24,
    notes: null,
    scriptKeyId: null,
    ...overrides,
  };
}

const LICENSE_KEYS = [
  licenseKey({ id: 12, licenseKey: 'LK-ALICE000-0000-0000-A11C', keyType: 'VIP', notes: 'for Alice' }),
  licenseKey({ id: 13, licenseKey: 'LK-BOB00000-0000-0000-B0B0', keyType: 'PREMIUM', status: 'REVOKED' }),
];
const CODES = [
  code({ id: 34, redemptionCode: 'SCANLINE-AAAA-BBBB-CCCC-DDDD', keyType: 'VIP' }),
  code({ id: 35, redemptionCode: 'SCANLINE-TAKE-NNNN-0000-0000', isRedeemed: 1, scriptKeyId: 5 }),
];

/** The licensing lists the pickers read, and the create call (its bodies recorded). */
function fakeServer() {
  const posts: unknown[] = [];
  mockFetch({
    '/api/admin/license-keys': () => json({ licenseKeys: LICENSE_KEYS, count: 2, timestamp: '' }),
    '/api/admin/redemption-keys': () => json({ redemptionKeys: CODES, count: 2, timestamp: '' }),
    [`POST ${CREATE_URL}`]: (init) => {
      posts.push(JSON.parse(String(init?.body)));
      return json({ scriptKey: { id: 9 } }, 201);
    },
  });
  return posts;
}

async function openDialog() {
  const user = userEvent.setup();
  renderAt(<CreateScriptKeyDialog />, '/admin/script-keys');
  await user.click(screen.getByRole('button', { name: 'Create Script Key' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create Script Key' });
  return { user, dialog };
}

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CreateScriptKeyDialog pickers', () => {
  it('lists license keys masked with type and status, searches them, and sends the picked id', async () => {
    const posts = fakeServer();
    const { user, dialog } = await openDialog();
    expect(within(dialog).queryByLabelText(/ID/)).toBeNull();

    const licensePicker = within(dialog).getByRole('combobox', { name: 'License Key (optional)' });
    await user.click(licensePicker);
    await waitFor(() =>
      expect(optionNames()).toEqual([
        'None',
        'LK-ALICE************A11CVIP · ACTIVE · for Alice',
        'LK-BOB00************B0B0PREMIUM · REVOKED',
      ]),
    );
    // The whole key never shows, but the search knows it (and the notes, type and id).
    expect(screen.queryByText(/LK-ALICE000-0000/)).toBeNull();
    await user.type(licensePicker, 'alice');
    expect(optionNames()).toEqual(['None', 'LK-ALICE************A11CVIP · ACTIVE · for Alice']);
    await user.click(screen.getByRole('option', { name: /LK-ALICE/ }));
    expect((licensePicker as HTMLInputElement).value).toBe('LK-ALICE************A11C');

    const codePicker = within(dialog).getByRole('combobox', { name: 'Redemption Code (optional)' });
    await user.click(codePicker);
    await user.click(await screen.findByRole('option', { name: /SCAN\*+DDDD/ }));

    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(posts).toEqual([expect.objectContaining({ licenseKeyId: 12, redemptionKeyId: 34 })]),
    );
  });

  it('shows a code that already backs a script key, but it cannot be picked', async () => {
    const posts = fakeServer();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('combobox', { name: 'Redemption Code (optional)' }));
    const taken = await screen.findByRole('option', { name: /TAKE|SCAN\*+0000/ });
    expect(taken.getAttribute('aria-disabled')).toBe('true');
    expect(taken.textContent).toContain('PREMIUM · Redeemed · has a script key');
    await user.click(taken);
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() => expect(posts).toEqual([expect.objectContaining({ redemptionKeyId: null })]));
  });

  it('picks with the keyboard, clears with None, and Escape closes only the list', async () => {
    const posts = fakeServer();
    const { user, dialog } = await openDialog();
    const picker = within(dialog).getByRole('combobox', { name: 'License Key (optional)' });
    await user.click(picker);
    await screen.findByRole('option', { name: /LK-BOB/ });
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect((picker as HTMLInputElement).value).toBe('LK-BOB00************B0B0');
    expect(picker.getAttribute('aria-expanded')).toBe('false');

    await user.click(picker);
    expect(screen.getByRole('option', { name: /LK-BOB/ }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(picker.getAttribute('aria-expanded')).toBe('false'));
    expect(screen.getByRole('dialog', { name: 'Create Script Key' })).toBeTruthy();
    expect((picker as HTMLInputElement).value).toBe('LK-BOB00************B0B0');

    await user.click(picker);
    await user.click(screen.getByRole('option', { name: 'None' }));
    expect((picker as HTMLInputElement).value).toBe('');
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() => expect(posts).toEqual([expect.objectContaining({ licenseKeyId: null })]));
  });

  it('says when a list cannot be loaded, and the key can still be created without it', async () => {
    const posts: unknown[] = [];
    mockFetch({
      '/api/admin/license-keys': () => json({ error: 'Database unavailable' }, 503),
      '/api/admin/redemption-keys': () => json({ redemptionKeys: [], count: 0, timestamp: '' }),
      [`POST ${CREATE_URL}`]: (init) => {
        posts.push(JSON.parse(String(init?.body)));
        return json({ scriptKey: { id: 9 } }, 201);
      },
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('combobox', { name: 'License Key (optional)' }));
    expect(await screen.findByText('Could not load license keys: Database unavailable')).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('combobox', { name: 'Redemption Code (optional)' }));
    expect(await screen.findByText('No redemption code matches')).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(posts).toEqual([expect.objectContaining({ licenseKeyId: null, redemptionKeyId: null })]),
    );
  });
});

describe('CreateScriptKeyDialog refusals', () => {
  it('refuses an expiry in the past beside its field before sending anything', async () => {
    const posts = fakeServer();
    const { user, dialog } = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Expires At (optional)'), {
      target: { value: '2020-01-02T03:04' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'Expires At (optional)')).toBe('The expiry must be in the future'),
    );
    expect(posts).toEqual([]);
  });

  it("shows the server's refusal beside the field it names", async () => {
    fakeServer();
    const answer = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (input, init) =>
      init?.method === 'POST'
        ? json({ error: 'redemptionKeyId: that code already has a script key' }, 409)
        : answer(input, init),
    );
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('combobox', { name: 'Redemption Code (optional)' }));
    await user.click(await screen.findByRole('option', { name: /SCAN\*+DDDD/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    await waitFor(() =>
      expect(fieldMessage(dialog, 'Redemption Code (optional)')).toBe('that code already has a script key'),
    );
    expect(fieldMessage(dialog, 'Expires At (optional)')).toBeNull();
  });
});
