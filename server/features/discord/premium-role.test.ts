import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import {
  makeInteractionSigner,
  postInteraction,
  slashCommand,
} from '../../test/fake-discord-interactions.ts';
import type { FakeGuild } from '../../test/fake-discord-rest.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

/**
 * The premium role through the app as it runs: /redeem in a configured guild gives the buyer the
 * role once (on a fake Discord that answers as Discord does), and the key running out takes it back.
 */
const signer = makeInteractionSigner();
const HOUR_MS = 60 * 60_000;

let fake: FakeDiscord;
let guild: FakeGuild;
beforeAll(async () => {
  fake = await startFakeDiscord();
  guild = fake.rest.createGuild();
});
afterAll(() => fake.close());

for (const [index, dialect] of DIALECTS.entries()) {
  describe(`${dialect}: the premium role follows a key redeemed in Discord`, () => {
    const buyer = `220000000000000010${index}`;
    const t = useTestApp(dialect, {
      signIn: true,
      listen: true,
      env: {
        DISCORD_PUBLIC_KEY: signer.publicKeyHex,
        DISCORD_APPLICATION_ID: signer.applicationId,
        get DISCORD_BOT_TOKEN() {
          return fake.rest.application.token;
        },
        get DISCORD_GUILD_ID() {
          return guild.id;
        },
        get DISCORD_PREMIUM_ROLE_ID() {
          return guild.premiumRoleId;
        },
        get DISCORD_API_URL() {
          return fake.apiUrl;
        },
      },
    });
    const changesOf = (userId: string) =>
      fake.rest
        .roleChanges()
        .filter((c) => c.userId === userId)
        .map((c) => c.method);

    it('gives the role once when /redeem links a premium key, and takes it back once the key has run out', async () => {
      fake.rest.addMember(guild.id, buyer);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/create-redemption-key',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM', validityDuration: 24, maxHardwareBindings: 1 },
      });
      expect(created.statusCode).toBe(201);
      const code = created.json().redemptionKey.redemptionCode as string;
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const command = slashCommand(signer, 'redeem', {
        userId: buyer,
        guildId: guild.id,
        options: [{ name: 'code', type: 3, value: code }],
      });
      const answer = await postInteraction(signer, url, command, Math.floor(t.clock.now() / 1000));
      expect(answer.status).toBe(200);

      await expect.poll(() => changesOf(buyer)).toEqual(['PUT']);
      expect(guild.members.get(buyer)).toEqual([guild.premiumRoleId]);
      // A sweep finds nothing more to do while the key runs.
      await t.ctx.services.discordRoles.sync.sweep();
      expect(changesOf(buyer)).toEqual(['PUT']);

      t.clock.advance(25 * HOUR_MS);
      await t.ctx.services.discordRoles.sync.sweep();
      await t.ctx.services.discordRoles.sync.sweep();
      expect(changesOf(buyer)).toEqual(['PUT', 'DELETE']);
      expect(guild.members.get(buyer)).toEqual([]);
    });
  });
}
