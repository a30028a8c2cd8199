import type { FakeDiscord } from '../../test/fake-discord.ts';
import type { FakeGuild } from '../../test/fake-discord-rest.ts';
import type { DiscordSettings } from './discord-rest-types.ts';

/** Settings pointing at the fake Discord's application (and guild with its premium role, if given). */
export function settingsFor(fake: FakeDiscord, guild?: FakeGuild): DiscordSettings {
  return {
    applicationId: fake.rest.application.id,
    publicKey: 'ab'.repeat(32),
    botToken: fake.rest.application.token,
    guildId: guild?.id ?? null,
    premiumRoleId: guild?.premiumRoleId ?? null,
    adminRoleId: null,
    apiUrl: fake.apiUrl,
  };
}
