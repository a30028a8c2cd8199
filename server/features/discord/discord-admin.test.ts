import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import type { FakeGuild } from '../../test/fake-discord-rest.ts';
import { insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { LACKS_MANAGE_ROLES } from './discord-rest-words.ts';

const BUYER = '2200000000000000001';

let fake: FakeDiscord;
let guild: FakeGuild;
beforeAll(async () => {
  fake = await startFakeDiscord();
  guild = fake.rest.createGuild();
});
afterAll(() => fake.close());

for (const dialect of DIALECTS) {
  describe(`${dialect}: System Configuration → Discord, the check and the premium role`, () => {
    const t = useTestApp(dialect, {
      signIn: true,
      env: {
        get DISCORD_API_URL() {
          return fake.apiUrl;
        },
        get DISCORD_APPLICATION_ID() {
          return fake.rest.application.id;
        },
        DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
        get DISCORD_BOT_TOKEN() {
          return fake.rest.application.token;
        },
        get DISCORD_GUILD_ID() {
          return guild.id;
        },
        get DISCORD_PREMIUM_ROLE_ID() {
          return guild.premiumRoleId;
        },
      },
    });
    const botRole = () => guild.roles.find((r) => r.id === guild.botRoleId)!;
    const check = () =>
      t.app.inject({ method: 'POST', url: '/api/admin/discord/check', headers: { cookie: t.cookie } });

    it('says everything is in place, then that the bot lacks Manage Roles once its role loses it', async () => {
      const fine = await check();
      expect(fine.statusCode).toBe(200);
      expect(fine.json()).toEqual({
        ok: true,
        problems: [],
        application: { id: fake.rest.application.id, name: 'Scanline Desk' },
        guild: { id: guild.id, name: guild.name },
      });
      botRole().permissions = '0';
      try {
        const lacking = await check();
        expect(lacking.json()).toMatchObject({ ok: false, problems: [LACKS_MANAGE_ROLES] });
      } finally {
        botRole().permissions = String(1n << 28n);
      }
    });

    it('is for the admin only, and from the app’s own pages only', async () => {
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/admin/discord/check' });
      expect(anonymous.statusCode).toBe(401);
      const grants = await t.app.inject({ method: 'GET', url: '/api/admin/discord/role-grants' });
      expect(grants.statusCode).toBe(401);
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/admin/discord/check',
        headers: { cookie: t.cookie, origin: 'https://evil.example' },
      });
      expect(elsewhere.statusCode).toBe(403);
    });

    it('lists each grant with its state, and a failed change with its error and next retry', async () => {
      const key = await insertTestScriptKey(t);
      await t.ctx.db
        .insertInto('discord_links')
        .values({
          script_key_id: key.id,
          discord_user_id: BUYER,
          guild_id: guild.id,
          linked_at: t.clock.now(),
        })
        .execute();
      botRole().permissions = '0';
      try {
        await t.ctx.services.discordRoles.sync.sweep();
      } finally {
        botRole().permissions = String(1n << 28n);
      }
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/discord/role-grants',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode).toBe(200);
      const { grants } = res.json();
      expect(grants).toMatchObject([
        {
          discordUserId: BUYER,
          guildId: guild.id,
          roleId: guild.premiumRoleId,
          state: 'failed',
          action: 'add',
          attempts: 1,
        },
      ]);
      expect(grants[0].lastError).toMatch(/^Missing Permissions \(50013\)/);
      expect(Date.parse(grants[0].retryAt)).toBeGreaterThan(t.clock.now());
    });
  });
}
