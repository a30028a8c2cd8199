import { describe, expect, it } from 'vitest';
import { KEY_SHARING_TEXTS, type KeySharingResponse } from '../../../common/script-keys.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { sharingAddressOf } from '../script-keys/key-sharing-address.ts';
import { pruneKeyAddresses } from '../script-keys/key-sharing-list.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import { loaderStopChunk } from './loader-response.ts';
import {
  auditRows,
  HOUR_MS,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
  scriptOf,
} from './script-access.fixtures.ts';

const SCRIPT = 'shared-premium.lua';
const CONTENT = 'return "premium"\n';
const HWID = 'device-1';
/** 25 addresses, each in its own /24: one key and device id loaded from all of them (the finding). */
const ADDRESSES = Array.from({ length: 25 }, (_, i) => `198.51.${i}.7`);

describe('the address a key use is counted by', () => {
  it('is the IPv4 address and its /24; an IPv4-mapped IPv6 address is its IPv4 address', () => {
    expect(sharingAddressOf('203.0.113.77')).toEqual({ address: '203.0.113.77', network: '203.0.113.0/24' });
    expect(sharingAddressOf('::ffff:203.0.113.77')).toEqual({
      address: '203.0.113.77',
      network: '203.0.113.0/24',
    });
  });

  it('is the /64 of an IPv6 address (privacy addresses of one device are one), and its /48', () => {
    const a = sharingAddressOf('2001:db8:aa:1:1111:2222:3333:4444');
    const b = sharingAddressOf('2001:db8:aa:1:9999:8888:7777:6666');
    expect(a).toEqual({ address: '2001:db8:aa:1::/64', network: '2001:db8:aa::/48' });
    expect(b).toEqual(a);
    expect(sharingAddressOf('fe80::1%eth0')).toEqual({ address: 'fe80::/64', network: 'fe80::/48' });
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: key-sharing signals`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const load = (scriptKey: string, ip: string, accept?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/script/loader?${new URLSearchParams({ script: SCRIPT, key: scriptKey, hwid: HWID })}`,
        remoteAddress: ip,
        headers: accept ? { accept } : {},
      });
    const sharing = async (): Promise<KeySharingResponse> => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/script-keys/sharing',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const sightings = () => t.ctx.db.selectFrom('script_key_addresses').selectAll().execute();

    it('flags a key loaded with one device id from 25 addresses, and lists what it did', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const shared = await insertTestScriptKey(t);
      const homeAndPhone = await insertTestScriptKey(t);
      for (const ip of ADDRESSES) {
        const res = await load(shared.scriptKey, ip);
        expect(scriptOf(res), ip).toBe(CONTENT);
        t.clock.advance(1000);
      }
      // Within the thresholds: 3 addresses in one /24.
      for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        expect(scriptOf(await load(homeAndPhone.scriptKey, ip))).toBe(CONTENT);
      }

      const answer = await sharing();
      expect(answer).toMatchObject({
        windowHours: 24,
        addressThreshold: 5,
        networkThreshold: 3,
        autoDisable: false,
      });
      expect(answer.keys).toHaveLength(1);
      const [flagged] = answer.keys;
      expect(flagged).toMatchObject({
        id: shared.id,
        scriptKey: shared.scriptKey,
        isActive: 1,
        disabledReason: null,
        addresses: 25,
        networks: 25,
      });
      // The latest uses first, each with its network and when it was seen.
      expect(flagged?.uses).toHaveLength(20);
      expect(flagged?.uses[0]).toEqual({
        address: '198.51.24.7',
        network: '198.51.24.0/24',
        firstSeen: new Date(t.clock.now() - 1000).toISOString(),
        lastSeen: new Date(t.clock.now() - 1000).toISOString(),
      });
      expect(flagged?.lastSeen).toBe(new Date(t.clock.now() - 1000).toISOString());
      // Without KEY_SHARING_AUTO_DISABLE the key keeps working.
      expect(scriptOf(await load(shared.scriptKey, '198.51.99.7'))).toBe(CONTENT);
    });

    it("counts the discovery feed's calls with the key as well", async () => {
      const key = await insertTestScriptKey(t);
      for (const ip of ADDRESSES.slice(0, 6)) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/script/feed?${new URLSearchParams({ key: key.scriptKey, hwid: HWID })}`,
          remoteAddress: ip,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await sharing()).keys).toMatchObject([{ id: key.id, addresses: 6, networks: 6 }]);
    });

    it('answers 401 without the admin session', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/script-keys/sharing' });
      expect(res.statusCode).toBe(401);
    });

    it('writes one row per key and address a minute, however often the key loads', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t);
      const start = t.clock.now();
      for (let i = 0; i < 10; i += 1) {
        expect((await load(key.scriptKey, '203.0.113.9')).statusCode).toBe(200);
        t.clock.advance(5000);
      }
      await t.app.pendingWrites.flush();
      expect(await sightings()).toEqual([
        {
          script_key_id: key.id,
          address: '203.0.113.9',
          network: '203.0.113.0/24',
          first_seen: start,
          last_seen: start,
        },
      ]);
      t.clock.advance(60_000);
      await load(key.scriptKey, '203.0.113.9');
      await t.app.pendingWrites.flush();
      expect((await sightings()).map((row) => Number(row.last_seen))).toEqual([t.clock.now()]);
    });

    it('forgets uses older than KEY_SHARING_WINDOW_HOURS: no longer flagged, then pruned', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t, { expiresAt: t.clock.now() + 48 * HOUR_MS });
      for (const ip of ADDRESSES.slice(0, 6)) await load(key.scriptKey, ip);
      expect((await sharing()).keys.map((k) => k.id)).toEqual([key.id]);
      t.clock.advance(24 * HOUR_MS + 1);
      // The admin session lasts 24 hours too.
      t.cookie = await t.adminCookie();
      expect((await sharing()).keys).toEqual([]);
      expect(await pruneKeyAddresses(t.ctx)).toBe(6);
      expect(await sightings()).toEqual([]);
    });
  });

  describe(`${dialect}: KEY_SHARING_AUTO_DISABLE`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { KEY_SHARING_AUTO_DISABLE: 'true' } });

    const load = (scriptKey: string, ip: string, accept?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/script/loader?${new URLSearchParams({ script: SCRIPT, key: scriptKey, hwid: HWID })}`,
        remoteAddress: ip,
        headers: accept ? { accept } : {},
      });
    const keyStatus = (scriptKey: string) =>
      t.app.inject({ method: 'POST', url: '/api/script/key-status', payload: { key: scriptKey } });

    it('switches a key loaded from 25 addresses off, with a reason the buyer sees; audited', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t);
      for (const ip of ADDRESSES) await load(key.scriptKey, ip);
      await t.app.pendingWrites.flush();

      const audits = await auditRows(t, 'script_key_status_changed');
      expect(audits).toHaveLength(1);
      const audit = audits[0] as (typeof audits)[number];
      expect(audit).toMatchObject({
        license_key: key.scriptKey,
        success: 1,
        details: { id: key.id, isActive: 0, by: 'key-sharing', windowHours: 24 },
      });
      const { addresses, networks } = audit.details as { addresses: number; networks: number };
      expect(addresses).toBeGreaterThan(5);
      const reason = KEY_SHARING_TEXTS.disabledReason(addresses, networks, 24);
      expect(audit.details.reason).toBe(reason);

      // The loader, from any address: refused with the reason (an executor's Lua, and JSON).
      const refused = await load(key.scriptKey, ADDRESSES[0] ?? '');
      expect(loaderStatus(refused)).toBe(403);
      expect(refused.headers['x-scanline-refusal']).toBe('403 key-disabled');
      expect(refused.body).toBe(loaderStopChunk(ACCESS_TEXTS.inactiveKeyBecause(reason)));
      const json = await load(key.scriptKey, '192.0.2.50', 'application/json');
      expect(json.statusCode).toBe(403);
      expect(json.json()).toEqual({ error: `This key has been switched off: ${reason}` });

      // My key shows it.
      const status = await keyStatus(key.scriptKey);
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json()).toMatchObject({ status: 'Inactive', disabledReason: reason });

      // Script Keys lists it, switched off, with the reason.
      const sharing = await t.app.inject({
        method: 'GET',
        url: '/api/admin/script-keys/sharing',
        headers: { cookie: t.cookie },
      });
      expect(sharing.json().autoDisable).toBe(true);
      expect(sharing.json().keys).toMatchObject([{ id: key.id, isActive: 0, disabledReason: reason }]);
    });

    it('leaves a key within the thresholds on', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t);
      for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '198.51.100.1', '198.51.100.2']) {
        await load(key.scriptKey, ip);
      }
      await t.app.pendingWrites.flush();
      expect(scriptOf(await load(key.scriptKey, '192.0.2.1'))).toBe(CONTENT);
      expect((await keyStatus(key.scriptKey)).json()).toMatchObject({
        status: 'Active',
        disabledReason: null,
      });
    });

    it('switched back on by the admin, the key starts its count afresh and the reason goes', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t);
      for (const ip of ADDRESSES) await load(key.scriptKey, ip);
      await t.app.pendingWrites.flush();
      expect(loaderStatus(await load(key.scriptKey, '192.0.2.1'))).toBe(403);

      const toggled = await t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/toggle-status',
        headers: { cookie: t.cookie },
        payload: { keyId: key.id },
      });
      expect(toggled.statusCode, toggled.body).toBe(200);
      expect(toggled.json().scriptKey).toMatchObject({ isActive: 1, disabledReason: null });
      expect(scriptOf(await load(key.scriptKey, '192.0.2.1'))).toBe(CONTENT);
      await t.app.pendingWrites.flush();
      expect(scriptOf(await load(key.scriptKey, '192.0.2.2'))).toBe(CONTENT);
      expect((await keyStatus(key.scriptKey)).json()).toMatchObject({
        status: 'Active',
        disabledReason: null,
      });
    });
  });
}
