import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import { settingsFor } from './discord-rest.fixtures.ts';
import { createDiscordRest, type DiscordRest, DiscordRestError } from './discord-rest.ts';
import { DiscordRateLimits, INVALID_BUDGET, INVALID_WINDOW_MS, routeOf } from './discord-rest-limits.ts';
import type { DiscordSettings } from './discord-rest-types.ts';

/** The bot's REST client against the fake Discord on loopback (short real waits: sockets need them). */
describe('Discord REST client', () => {
  let fake: FakeDiscord;
  let settings: DiscordSettings;
  let rest: DiscordRest;

  beforeEach(async () => {
    fake = await startFakeDiscord({ restLimit: 3, restWindowMs: 400 });
    settings = settingsFor(fake);
    rest = createDiscordRest({ settings: () => settings });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends the bot token and reads the application', async () => {
    const app = await rest.getApplication();
    expect(app.id).toBe(fake.rest.application.id);
    expect(app.bot?.id).toBe(fake.rest.application.botUserId);
  });

  it("waits out a 429's retry_after, then asks once more", async () => {
    fake.rest.rateLimitNext(1, 0.3);
    const started = Date.now();
    const app = await rest.getApplication();
    expect(app.name).toBe('Scanline Desk');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(fake.rest.calls.map((c) => c.status)).toEqual([429, 200]);
  });

  it('holds every route during a global 429', async () => {
    const guild = fake.rest.createGuild();
    fake.rest.rateLimitNext(1, 0.3, { global: true });
    await rest.getApplication();
    const after429 = Date.now();
    await rest.getRoles(guild.id);
    const rolesCall = fake.rest.calls.find((c) => c.path.endsWith('/roles'))!;
    expect(rolesCall.at).toBeGreaterThanOrEqual(fake.rest.calls[0]!.at + 290);
    expect(after429).toBeLessThanOrEqual(rolesCall.at);
    expect(fake.rest.rateLimited).toBe(1);
  });

  it("obeys a bucket's Remaining: ten role changes at once on a bucket of 3 per 400 ms, not one 429", async () => {
    const guild = fake.rest.createGuild();
    const users = Array.from({ length: 10 }, (_, i) => String(1_300_000_000_000_000_000n + BigInt(i)));
    for (const u of users) fake.rest.addMember(guild.id, u);
    await Promise.all(users.map((u) => rest.addMemberRole(guild.id, u, guild.premiumRoleId)));
    expect(fake.rest.rateLimited).toBe(0);
    expect(fake.rest.roleChanges()).toHaveLength(10);
    for (const u of users) expect(guild.members.get(u)).toEqual([guild.premiumRoleId]);
  });

  it('answers Discord errors with their status and code, and offers a refused token no more', async () => {
    const guild = fake.rest.createGuild();
    await expect(
      rest.removeMemberRole(guild.id, '1300000000000000099', guild.premiumRoleId),
    ).rejects.toMatchObject({
      status: 404,
      code: 10007,
      message: 'Unknown Member',
    });
    settings = { ...settings, botToken: 'not-the-token' };
    await expect(rest.getApplication()).rejects.toBeInstanceOf(DiscordRestError);
    const calls = fake.rest.calls.length;
    await expect(rest.getApplication()).rejects.toMatchObject({ status: 401 });
    expect(fake.rest.calls.length).toBe(calls);
    expect(rest.invalidRequests()).toBe(1);
  });

  it('posts a follow-up to the interaction webhook without the bot token', async () => {
    await rest.followUp(fake.rest.application.id, 'interaction-token', { content: 'Done', flags: 64 });
    expect(fake.rest.followUps).toEqual([
      {
        applicationId: fake.rest.application.id,
        token: 'interaction-token',
        body: { content: 'Done', flags: 64 },
      },
    ]);
    expect(fake.rest.calls[0]!.path).toBe(`/webhooks/${fake.rest.application.id}/interaction-token`);
  });
});

describe('Discord REST client against a silent Discord', () => {
  it('gives up on a call after its timeout, and the next call on the route still goes', async () => {
    let connections = 0;
    const silent = createServer((socket) => {
      connections += 1;
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const apiUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v10`;
    const settings: DiscordSettings = {
      applicationId: null,
      publicKey: null,
      botToken: 'token',
      guildId: null,
      premiumRoleId: null,
      adminRoleId: null,
      apiUrl,
    };
    const rest = createDiscordRest({ settings: () => settings, timeoutMs: 150 });
    try {
      await expect(rest.getApplication()).rejects.toThrow('No answer within 0.15 s');
      await expect(rest.getApplication()).rejects.toThrow('No answer within 0.15 s');
      expect(connections).toBe(2);
    } finally {
      silent.close();
    }
  });
});

describe('Discord rate limits', () => {
  it('buckets a route by its major parameter only', () => {
    expect(
      routeOf('PUT', '/guilds/1190000000000000001/members/1190000000000000002/roles/1190000000000000003'),
    ).toBe('PUT /guilds/1190000000000000001/members/:id/roles/:id');
  });

  it('stops asking well before the invalid-request ban, and asks again once the window moved on', () => {
    let t = 1_000_000;
    const limits = new DiscordRateLimits(() => t);
    const forbidden = { status: 403, headers: {}, body: '{"message":"Missing Permissions","code":50013}' };
    for (let i = 0; i < INVALID_BUDGET; i += 1) limits.observe('GET /x', limits.start('GET /x'), forbidden);
    expect(limits.invalidCount()).toBe(INVALID_BUDGET);
    expect(INVALID_BUDGET).toBeLessThanOrEqual(10_000 / 5);
    expect(limits.invalidBudgetWaitMs()).toBe(INVALID_WINDOW_MS);
    t += INVALID_WINDOW_MS;
    expect(limits.invalidBudgetWaitMs()).toBe(0);
  });
});
