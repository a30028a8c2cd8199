import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/index.ts';
import { type FakeDiscord, startFakeDiscord } from '../../test/fake-discord.ts';
import type { FakeGuild } from '../../test/fake-discord-rest.ts';
import { buildTestApp, DIALECTS, fakeClock, openTestDatabase, type TestApp } from '../../test/helper.ts';
import { BACKOFF_MAX_MS } from '../notifications/rate-limits.ts';
import { settingsFor } from './discord-rest.fixtures.ts';
import type { DiscordSettings } from './discord-rest-types.ts';
import { eventually, insertKey, roleSyncFor } from './role-sync.fixtures.ts';
import type { RoleSync } from './role-sync.ts';

const HOUR = 60 * 60_000;
const BUYER = '1300000000000000001';

for (const dialect of DIALECTS) {
  describe(`${dialect}: the premium role follows the key`, () => {
    let fake: FakeDiscord;
    let guild: FakeGuild;
    let db: Db;
    let drop: () => Promise<void>;
    let settings: DiscordSettings;
    let links: Map<string, number>;
    let sync: RoleSync;
    const clock = fakeClock();

    beforeEach(async () => {
      fake = await startFakeDiscord();
      guild = fake.rest.createGuild();
      fake.rest.addMember(guild.id, BUYER);
      ({ db, drop } = await openTestDatabase(dialect));
      settings = settingsFor(fake, guild);
      links = new Map();
      sync = roleSyncFor(db, () => settings, links, clock.now);
    });
    afterEach(async () => {
      await drop();
      await fake.close();
    });

    const changes = () => fake.rest.roleChanges().map((c) => `${c.method} ${c.userId}`);

    it('adds the role once to a user linked to a premium key', async () => {
      links.set(BUYER, await insertKey(db, 'PREMIUM', clock.now() + HOUR));
      expect(await sync.sweep()).toEqual({ skipped: false, added: 1, removed: 0, failed: 0 });
      expect(await sync.sweep()).toEqual({ skipped: false, added: 0, removed: 0, failed: 0 });
      expect(changes()).toEqual([`PUT ${BUYER}`]);
      expect(guild.members.get(BUYER)).toEqual([guild.premiumRoleId]);
      expect(fake.rest.calls.find((c) => c.method === 'PUT')?.reason).toBe('Scanline: premium key linked');
      expect(await sync.list()).toMatchObject([
        { discordUserId: BUYER, state: 'granted', attempts: 0, lastError: null },
      ]);
    });

    it('gives no role for a FREE key, and does nothing while the role is not configured', async () => {
      links.set(BUYER, await insertKey(db, 'FREE', null));
      await sync.sweep();
      settings = { ...settings, premiumRoleId: null };
      links.set(BUYER, await insertKey(db, 'VIP', null));
      expect(await sync.sweep()).toMatchObject({ skipped: true });
      expect(await sync.grantNow(BUYER)).toBeNull();
      expect(changes()).toEqual([]);
    });

    it('adds the role at once when a key is linked, and the sweep does not add it again', async () => {
      links.set(BUYER, await insertKey(db, 'premium_24h', clock.now() + HOUR));
      expect(await sync.grantNow(BUYER)).toMatchObject({ discordUserId: BUYER, state: 'granted' });
      await sync.sweep();
      expect(changes()).toEqual([`PUT ${BUYER}`]);
    });

    it('removes the role exactly once when the key expires, and gives it back on a new key', async () => {
      links.set(BUYER, await insertKey(db, 'PREMIUM', clock.now() + HOUR));
      await sync.sweep();
      clock.advance(HOUR);
      expect(await sync.sweep()).toMatchObject({ removed: 1 });
      await sync.sweep();
      expect(changes()).toEqual([`PUT ${BUYER}`, `DELETE ${BUYER}`]);
      expect(guild.members.get(BUYER)).toEqual([]);
      expect(fake.rest.calls.find((c) => c.method === 'DELETE')?.reason).toBe('Scanline: premium key ended');
      expect(await sync.list()).toMatchObject([{ state: 'removed' }]);
      links.set(BUYER, await insertKey(db, 'PREMIUM', clock.now() + HOUR));
      await sync.sweep();
      expect(changes()).toEqual([`PUT ${BUYER}`, `DELETE ${BUYER}`, `PUT ${BUYER}`]);
    });

    it('removes the role when the key is switched off', async () => {
      const keyId = await insertKey(db, 'VIP', null);
      links.set(BUYER, keyId);
      await sync.sweep();
      await db.updateTable('script_keys').set({ is_active: 0 }).where('id', '=', keyId).execute();
      await sync.sweep();
      expect(changes()).toEqual([`PUT ${BUYER}`, `DELETE ${BUYER}`]);
    });

    it('retries a failed change with backoff and shows why it failed meanwhile', async () => {
      const botRole = guild.roles.find((r) => r.id === guild.botRoleId)!;
      botRole.permissions = '0';
      links.set(BUYER, await insertKey(db, 'PREMIUM', null));
      expect(await sync.sweep()).toMatchObject({ added: 0, failed: 1 });
      const [failed] = await sync.list();
      expect(failed).toMatchObject({ state: 'failed', action: 'add', attempts: 1 });
      expect(failed!.lastError).toMatch(/^Missing Permissions \(50013\): the bot lacks Manage Roles/);
      expect(Date.parse(failed!.retryAt!)).toBeGreaterThan(clock.now());
      // Not asked again before its time (each 403 counts toward Discord's ban).
      await sync.sweep();
      expect(fake.rest.calls.filter((c) => c.status === 403)).toHaveLength(1);
      botRole.permissions = String(1n << 28n);
      clock.advance(BACKOFF_MAX_MS);
      expect(await sync.sweep()).toMatchObject({ added: 1, failed: 0 });
      expect(await sync.list()).toMatchObject([
        { state: 'granted', attempts: 0, lastError: null, retryAt: null },
      ]);
      expect(guild.members.get(BUYER)).toEqual([guild.premiumRoleId]);
    });

    it('waits as long as Discord asks when it keeps answering 429', async () => {
      links.set(BUYER, await insertKey(db, 'PREMIUM', null));
      fake.rest.rateLimitNext(1, 120);
      expect(await sync.sweep()).toMatchObject({ failed: 1 });
      const [grant] = await sync.list();
      expect(grant).toMatchObject({ state: 'failed', attempts: 1 });
      expect(Date.parse(grant!.retryAt!)).toBeGreaterThanOrEqual(clock.now() + 119_000);
    });

    it('makes each change once when two instances sweep at the same moment', async () => {
      const other = roleSyncFor(db, () => settings, links, clock.now);
      links.set(BUYER, await insertKey(db, 'PREMIUM', clock.now() + HOUR));
      await Promise.all([sync.sweep(), other.sweep(), sync.grantNow(BUYER)]);
      clock.advance(HOUR);
      await Promise.all([sync.sweep(), other.sweep()]);
      expect(changes()).toEqual([`PUT ${BUYER}`, `DELETE ${BUYER}`]);
    });
  });
}

if (DIALECTS.includes('postgres')) {
  describe('postgres: two app instances on one database', () => {
    let first: TestApp;
    let second: TestApp;
    let fake: FakeDiscord;
    const syncs: RoleSync[] = [];

    beforeEach(async () => {
      fake = await startFakeDiscord();
      first = await buildTestApp('postgres');
      second = await buildTestApp('postgres', {}, { joinSchemaOf: first });
    });
    afterEach(async () => {
      for (const s of syncs.splice(0)) await s.stop();
      await second.close();
      await first.close();
      await fake.close();
    });

    it('removes the role exactly once when the key expires with both instances sweeping', async () => {
      const guild = fake.rest.createGuild();
      fake.rest.addMember(guild.id, BUYER);
      const settings = settingsFor(fake, guild);
      const links = new Map([[BUYER, await insertKey(first.ctx.db, 'PREMIUM', first.clock.now() + HOUR)]]);
      for (const [i, app] of [first, second].entries()) {
        const sync = roleSyncFor(app.ctx.db, () => settings, links, app.clock.now);
        sync.start({ intervalMs: 25, instanceId: `instance-${i}` });
        syncs.push(sync);
      }
      await eventually(() => fake.rest.roleChanges().length === 1);
      first.clock.advance(2 * HOUR);
      second.clock.advance(2 * HOUR);
      await eventually(() => fake.rest.roleChanges().length === 2);
      // Several more rounds of both loops (the lease changed hands when the clocks moved).
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.rest.roleChanges().map((c) => c.method)).toEqual(['PUT', 'DELETE']);
      expect(guild.members.get(BUYER)).toEqual([]);
    });
  });
}
