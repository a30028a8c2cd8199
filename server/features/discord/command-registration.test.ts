import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import { DIALECTS, fakeClock, openTestDatabase } from '../../test/helper.ts';
import { registerGuildCommands } from './command-registration.ts';
import { settingsFor } from './discord-rest.fixtures.ts';
import { createDiscordRest, type DiscordRest } from './discord-rest.ts';
import type { DiscordCommand, DiscordSettings } from './discord-rest-types.ts';
import { TOKEN_WRONG } from './discord-rest-words.ts';

const COMMANDS: DiscordCommand[] = [
  { name: 'key', description: 'Your keys', type: 1 },
  { name: 'status', description: 'The fleet in one line', type: 1 },
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: guild command registration`, () => {
    let fake: FakeDiscord;
    let db: Db;
    let drop: () => Promise<void>;
    let settings: DiscordSettings;
    let rest: DiscordRest;
    const clock = fakeClock();
    const overwrites = () =>
      fake.rest.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/commands'));

    beforeEach(async () => {
      fake = await startFakeDiscord();
      ({ db, drop } = await openTestDatabase(dialect));
      const guild = fake.rest.createGuild();
      settings = settingsFor(fake, guild);
      rest = createDiscordRest({ settings: () => settings });
    });
    afterEach(async () => {
      await drop();
      await fake.close();
    });

    const deps = () => ({ db, rest, now: clock.now });

    it('overwrites the guild commands once, and not again on a start where nothing changed', async () => {
      expect(await registerGuildCommands(deps(), settings, COMMANDS)).toEqual({
        status: 'registered',
        count: 2,
      });
      expect(await registerGuildCommands(deps(), settings, COMMANDS)).toEqual({ status: 'unchanged' });
      expect(overwrites()).toHaveLength(1);
      expect(overwrites()[0]!.path).toBe(
        `/applications/${settings.applicationId}/guilds/${settings.guildId}/commands`,
      );
      expect(fake.rest.commands.get(settings.guildId!)?.map((c: any) => c.name)).toEqual(['key', 'status']);
    });

    it('overwrites again when the commands, the guild or the token changed, or the settings are saved', async () => {
      await registerGuildCommands(deps(), settings, COMMANDS);
      const more: DiscordCommand[] = [...COMMANDS, { name: 'redeem', description: 'Redeem a code', type: 1 }];
      expect(await registerGuildCommands(deps(), settings, more)).toEqual({ status: 'registered', count: 3 });
      const other = fake.rest.createGuild();
      settings = { ...settings, guildId: other.id };
      expect(await registerGuildCommands(deps(), settings, more)).toEqual({ status: 'registered', count: 3 });
      expect(await registerGuildCommands(deps(), settings, more, { force: true })).toEqual({
        status: 'registered',
        count: 3,
      });
      expect(overwrites()).toHaveLength(4);
    });

    it('says what is wrong when Discord refuses, and tries again next time', async () => {
      settings = { ...settings, botToken: 'wrong' };
      expect(await registerGuildCommands(deps(), settings, COMMANDS)).toEqual({
        status: 'failed',
        error: TOKEN_WRONG,
      });
      settings = { ...settings, botToken: fake.rest.application.token };
      expect(await registerGuildCommands(deps(), settings, COMMANDS)).toEqual({
        status: 'registered',
        count: 2,
      });
    });

    it('registers nothing while the application, token or guild is not set', async () => {
      settings = { ...settings, guildId: null };
      expect(await registerGuildCommands(deps(), settings, COMMANDS)).toEqual({ status: 'not_configured' });
      expect(fake.rest.calls).toHaveLength(0);
    });
  });
}
