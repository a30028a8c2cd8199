import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/render.tsx';
import type { DiscordSettingsView } from '../../../../common/discord.ts';
import { renderAt } from '../shared/test-utils.tsx';
import SystemConfigurationPage from './system-configuration.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
vi.mock('@/lib/realtime.tsx', () => ({
  RealtimeProvider: ({ children }: { children: ReactNode }) => children,
  useRealtime: () => ({ status: 'connected', reconnect: () => {}, requestSystemHealth: () => {} }),
}));

const SETTINGS_URL = '/api/admin/discord/settings';

const UNSET: DiscordSettingsView = {
  applicationId: null,
  publicKey: null,
  botToken: null,
  guildId: null,
  premiumRoleId: null,
  adminRoleId: null,
  apiUrl: 'https://discord.com/api/v10',
  fromEnvironment: {
    applicationId: false,
    publicKey: false,
    botToken: false,
    guildId: false,
    premiumRoleId: false,
    adminRoleId: false,
  },
  interactionsPath: '/api/discord/interactions',
  interactionsReady: false,
};

function fakeServer(start: DiscordSettingsView) {
  let settings = structuredClone(start);
  const puts: Record<string, unknown>[] = [];
  mockFetch({
    '/api/admin/system-configuration': () =>
      json({ configuration: { totalSlots: 30, paymentWallets: {}, hwidResetsPerWeek: 1 } }),
    '/api/admin/system-configuration/slot-usage': () =>
      json({ slotUsage: { usedSlots: 0, availableSlots: 30, totalSlots: 30, utilizationPercentage: 0 } }),
    [SETTINGS_URL]: () => json({ settings }),
    [`PUT ${SETTINGS_URL}`]: (init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, any>;
      puts.push(body);
      settings = { ...settings, ...body, interactionsReady: Boolean(body.publicKey ?? settings.publicKey) };
      if (typeof body.botToken === 'string') settings.botToken = `••••${body.botToken.slice(-4)}`;
      return json({ settings });
    },
  });
  return { puts };
}

async function openTab() {
  const user = userEvent.setup();
  renderAt(<SystemConfigurationPage />, '/admin/system-configuration');
  await user.click(await screen.findByRole('tab', { name: 'Discord' }));
  await screen.findByRole('form', { name: 'Discord settings' });
  return user;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('System Configuration: Discord', () => {
  it('shows the interactions URL to copy and saves the settings, the token only masked afterwards', async () => {
    const { puts } = fakeServer(UNSET);
    const user = await openTab();
    expect(screen.getByText('No public key')).toBeTruthy();
    expect(screen.getByTestId('interactions-url').textContent).toBe(
      `${window.location.origin}/api/discord/interactions`,
    );
    await user.type(screen.getByLabelText('Public key'), 'ab'.repeat(32));
    await user.type(screen.getByLabelText('Guild ID'), '3300000000000000001');
    const token = screen.getByLabelText('Bot token');
    expect(token.getAttribute('type')).toBe('password');
    await user.type(token, 'MTE.bot-token-value-1234');
    await user.click(screen.getByRole('button', { name: 'Save Discord Settings' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      publicKey: 'ab'.repeat(32),
      guildId: '3300000000000000001',
      botToken: 'MTE.bot-token-value-1234',
    });
    expect(await screen.findByText('Interactions verified')).toBeTruthy();
    expect(screen.getByText('Saved (••••1234). Leave empty to keep it.')).toBeTruthy();
    expect((screen.getByLabelText('Bot token') as HTMLInputElement).value).toBe('');
  });

  it('makes a setting the environment sets read-only, naming its variable', async () => {
    fakeServer({
      ...UNSET,
      publicKey: 'cd'.repeat(32),
      interactionsReady: true,
      fromEnvironment: { ...UNSET.fromEnvironment, publicKey: true },
    });
    await openTab();
    expect((screen.getByLabelText('Public key') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText('Set by the environment (DISCORD_PUBLIC_KEY): change it there.')).toBeTruthy();
  });
});
