import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import type { FakeGuild } from '../../test/fake-discord-rest.ts';
import { settingsFor } from './discord-rest.fixtures.ts';
import { createDiscordRest } from './discord-rest.ts';
import { checkDiscord } from './discord-rest-check.ts';
import type { DiscordSettings } from './discord-rest-types.ts';
import { BOT_NOT_IN_GUILD, LACKS_MANAGE_ROLES, TOKEN_WRONG } from './discord-rest-words.ts';

describe('the Discord check', () => {
  let fake: FakeDiscord;
  let guild: FakeGuild;
  let settings: DiscordSettings;

  beforeEach(async () => {
    fake = await startFakeDiscord();
    guild = fake.rest.createGuild();
    settings = settingsFor(fake, guild);
  });
  afterEach(async () => {
    await fake.close();
  });

  const check = () => checkDiscord(createDiscordRest({ settings: () => settings }), settings);

  it('finds nothing missing when the bot is in the server with Manage Roles above the premium role', async () => {
    expect(await check()).toEqual({
      ok: true,
      application: { id: fake.rest.application.id, name: 'Scanline Desk' },
      guild: { id: guild.id, name: guild.name },
      problems: [],
    });
  });

  it('says the token is wrong', async () => {
    settings = { ...settings, botToken: 'MTE.wrong.token' };
    expect(await check()).toMatchObject({ ok: false, problems: [TOKEN_WRONG] });
  });

  it('names each setting not set', async () => {
    settings = { ...settings, applicationId: null, publicKey: null, guildId: null, premiumRoleId: null };
    const result = await check();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      'The application id is not set.',
      'The public key is not set.',
      'The server (guild) id is not set.',
    ]);
  });

  it('says the token is another application’s', async () => {
    settings = { ...settings, applicationId: '1234567890123456789' };
    expect((await check()).problems).toEqual([
      `The bot token belongs to the application Scanline Desk (${fake.rest.application.id}), not to the application id set (1234567890123456789).`,
    ]);
  });

  it('says the bot is not in the server', async () => {
    const outside = fake.rest.createGuild({ botJoined: false });
    settings = { ...settings, guildId: outside.id, premiumRoleId: outside.premiumRoleId };
    expect((await check()).problems).toEqual([`${BOT_NOT_IN_GUILD} (server id ${outside.id})`]);
    settings = { ...settings, guildId: '1234567890123456789' };
    expect((await check()).problems).toEqual([`${BOT_NOT_IN_GUILD} (server id 1234567890123456789)`]);
  });

  it('says the bot lacks Manage Roles', async () => {
    const weak = fake.rest.createGuild({ botPermissions: 0n });
    settings = { ...settings, guildId: weak.id, premiumRoleId: weak.premiumRoleId };
    expect((await check()).problems).toEqual([LACKS_MANAGE_ROLES]);
  });

  it('says the premium role is above the bot’s highest role', async () => {
    guild.roles.find((r) => r.id === guild.premiumRoleId)!.position = 5;
    expect((await check()).problems).toEqual([
      'The premium role “Premium” is above the bot’s highest role “Scanline Desk”: drag the bot’s role above it in Server Settings → Roles.',
    ]);
  });

  it('says the premium role does not exist, or is an integration’s', async () => {
    settings = { ...settings, premiumRoleId: '1234567890123456789' };
    expect((await check()).problems).toEqual([
      `The premium role 1234567890123456789 does not exist in ${guild.name}: copy its id again (Server Settings → Roles → right-click → Copy Role ID).`,
    ]);
    settings = { ...settings, premiumRoleId: guild.botRoleId };
    expect((await check()).problems).toEqual([
      'The premium role “Scanline Desk” is managed by an integration: nobody can give it by hand. Choose a role you made.',
    ]);
  });
});
