import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json, mockFetch } from '@/test/render.tsx';
import type {
  DiscordCheckResponse,
  DiscordRoleGrant,
  DiscordSettingsView,
} from '../../../../common/discord.ts';
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

const CHECK_URL = '/api/admin/discord/check';
const GRANTS_URL = '/api/admin/discord/role-grants';

function fakeServer(
  start: DiscordSettingsView,
  discord: { check?: DiscordCheckResponse; grants?: DiscordRoleGrant[] } = {},
) {
  let settings = structuredClone(start);
  const checks: number[] = [];
  const puts: Record<string, unknown>[] = [];
  mockFetch({
    '/api/admin/system-configuration': () =>
      json({ configuration: { totalSlots: 30, paymentWallets: {}, hwidResetsPerWeek: 1 } }),
    '/api/admin/system-configuration/slot-usage': () =>
      json({ slotUsage: { usedSlots: 0, availableSlots: 30, totalSlots: 30, utilizationPercentage: 0 } }),
    [SETTINGS_URL]: () => json({ settings }),
    [GRANTS_URL]: () => json({ grants: discord.grants ?? [] }),
    [`POST ${CHECK_URL}`]: () => {
      checks.push(1);
      return json(discord.check ?? { ok: true, problems: [], application: null, guild: null });
    },
    [`PUT ${SETTINGS_URL}`]: (init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, any>;
      puts.push(body);
      settings = { ...settings, ...body, interactionsReady: Boolean(body.publicKey ?? settings.publicKey) };
      if (typeof body.botToken === 'string') settings.botToken = `••••${body.botToken.slice(-4)}`;
      return json({ settings });
    },
  });
  return { puts, checks };
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
    // Saved, but not yet a desk Discord can reach: the toast says what is missing, not that commands run.
    expect(toast).toHaveBeenLastCalledWith({
      title: 'Discord Settings Saved',
      description:
        "Not connected yet: the application ID is missing. Until it is saved, Discord's slash commands get no answer.",
    });
    await user.type(screen.getByLabelText('Application ID'), '1100000000000000001');
    await user.click(screen.getByRole('button', { name: 'Save Discord Settings' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith({
        title: 'Discord Settings Saved',
        description: 'Commands use the new settings now.',
      }),
    );
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

  it('checks the saved settings and shows what is missing in the operator’s words, or that all is in place', async () => {
    const problems = [
      'The bot lacks the Manage Roles permission: give its role Manage Roles in Server Settings → Roles.',
      'The premium role “Premium” is above the bot’s highest role “Scanline”: drag the bot’s role above it in Server Settings → Roles.',
    ];
    const discord = {
      check: {
        ok: false,
        problems,
        application: { id: '1190000000000000001', name: 'Scanline Desk' },
        guild: { id: '3300000000000000001', name: 'Pet Finders' },
      } as DiscordCheckResponse,
    };
    const { checks } = fakeServer(UNSET, discord);
    const user = await openTab();
    await user.click(screen.getByRole('button', { name: 'Check' }));
    const result = await screen.findByTestId('discord-check-result');
    expect(checks).toHaveLength(1);
    expect(result.textContent).toContain('2 things to fix');
    for (const problem of problems) expect(screen.getByText(problem)).toBeTruthy();
    expect(result.textContent).toContain('Server: Pet Finders (3300000000000000001)');

    discord.check = {
      ok: true,
      problems: [],
      application: discord.check.application,
      guild: discord.check.guild,
    };
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Everything is in place')).toBeTruthy();
    expect(screen.queryByText(problems[0]!)).toBeNull();
  });

  it('shows each premium role grant, a failed change with its error and next retry', async () => {
    const error =
      'Missing Permissions (50013): the bot lacks Manage Roles, or the role is not below the bot’s highest role (Server Settings → Roles: drag the bot’s role above it).';
    const grant = (discordUserId: string, rest: Partial<DiscordRoleGrant>): DiscordRoleGrant => ({
      discordUserId,
      guildId: '3300000000000000001',
      roleId: '4400000000000000001',
      state: 'granted',
      action: 'add',
      attempts: 0,
      lastError: null,
      retryAt: null,
      updatedAt: '2026-11-28T10:00:00.000Z',
      ...rest,
    });
    fakeServer(UNSET, {
      grants: [
        grant('2200000000000000001', {
          state: 'failed',
          attempts: 3,
          lastError: error,
          retryAt: '2026-11-28T10:05:00.000Z',
        }),
        grant('2200000000000000002', {}),
      ],
    });
    await openTab();
    expect(await screen.findByText('Premium role')).toBeTruthy();
    expect(await screen.findByText('1 failed change')).toBeTruthy();
    const failed = document.querySelector('[data-discord-user="2200000000000000001"]') as HTMLElement;
    expect(failed.textContent).toContain('Failed to give');
    expect(failed.textContent).toContain(error);
    expect(failed.textContent).toContain('3');
    expect(failed.textContent).toContain('Nov 28, 2026');
    const held = document.querySelector('[data-discord-user="2200000000000000002"]') as HTMLElement;
    expect(held.textContent).toContain('Holds the role');
  });

  it('says when nobody has been given the premium role yet', async () => {
    fakeServer(UNSET);
    await openTab();
    expect(await screen.findByText('Nobody has been given the premium role yet')).toBeTruthy();
  });
});
