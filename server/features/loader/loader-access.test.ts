import { describe, expect, it } from 'vitest';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { usageDay } from '../../db/usage-day.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { publishScriptKeyChanged } from '../licensing/script-key-events.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import { loaderStopChunk } from './loader-response.ts';
import {
  auditRows,
  callLoader,
  HOUR_MS,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
  scriptKeyBindings,
  scriptOf,
} from './script-access.fixtures.ts';

const SCRIPT = 'premium.lua';
const CONTENT = 'return "premium v1"\n';

type LoaderResponse = Awaited<ReturnType<typeof callLoader>>;

/**
 * A refusal is Lua the executor can run: it prints the reason and stops with it, answered 200 (so an
 * HttpGet that raises on 4xx still runs it), the real status in X-Scanline-Refusal.
 */
function expectLuaRefusal(res: LoaderResponse, status: number, message: string) {
  expect(res.statusCode).toBe(200);
  expect(loaderStatus(res)).toBe(status);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.body).toBe(loaderStopChunk(message));
  expect(findLuaSyntaxError(res.body)).toBeNull();
}

function expectServed(res: LoaderResponse, content = CONTENT) {
  expect(res.statusCode, res.body).toBe(200);
  expect(scriptOf(res)).toBe(content);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the loader for PREMIUM scripts`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const premiumKey = (options: Parameters<typeof insertTestScriptKey>[1] = {}) =>
      insertTestScriptKey(t, options);
    const withScript = async () => savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
    const load = (query: Record<string, string>, headers: Record<string, string> = {}) =>
      callLoader(t, { script: SCRIPT, ...query }, headers);
    const admin = (method: 'POST' | 'DELETE', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { cookie: t.cookie }, payload });

    describe('refusals', () => {
      it('asks for a key with 401 when none is given', async () => {
        await withScript();
        expectLuaRefusal(await load({ hwid: 'device-1' }), 401, ACCESS_TEXTS.keyRequired);
      });

      it('refuses an unknown, switched-off, expired or FREE key with 403, each with its own reason', async () => {
        await withScript();
        const off = await premiumKey({ isActive: 0 });
        const expired = await premiumKey({ expiresAt: t.clock.now() - 1 });
        const free = await premiumKey({ scriptType: 'FREE' });
        expectLuaRefusal(await load({ key: 'SK-nope', hwid: 'd' }), 403, ACCESS_TEXTS.unknownKey);
        expectLuaRefusal(await load({ key: off.scriptKey, hwid: 'd' }), 403, ACCESS_TEXTS.inactiveKey);
        expectLuaRefusal(await load({ key: expired.scriptKey, hwid: 'd' }), 403, ACCESS_TEXTS.expiredKey);
        expectLuaRefusal(await load({ key: free.scriptKey, hwid: 'd' }), 403, ACCESS_TEXTS.freeKey);
        // Without a device id too: a bad key is refused before any bootstrap.
        expectLuaRefusal(await load({ key: off.scriptKey }), 403, ACCESS_TEXTS.inactiveKey);
        const bindings = await t.ctx.db.selectFrom('hardware_bindings').selectAll().execute();
        expect(bindings).toEqual([]);
      });

      it('lets VIP and premium_24h keys in like PREMIUM ones', async () => {
        await withScript();
        for (const scriptType of ['VIP', 'premium_24h'] as const) {
          const key = await premiumKey({ scriptType });
          expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        }
      });

      it('refuses a key the moment it expires, though it is in memory', async () => {
        await withScript();
        const key = await premiumKey({ expiresAt: t.clock.now() + HOUR_MS });
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        t.clock.advance(HOUR_MS);
        expectLuaRefusal(await load({ key: key.scriptKey, hwid: 'device-1' }), 403, ACCESS_TEXTS.expiredKey);
      });

      it('refuses a challenge half given, a malformed signature or a bad device header with 400', async () => {
        await withScript();
        const { scriptKey } = await premiumKey();
        const sig = 'a'.repeat(64);
        expectLuaRefusal(
          await load({ key: scriptKey, hwid: 'd', nonce: 'abc' }),
          400,
          'Bad loader request: nonce and sig must be given together',
        );
        expectLuaRefusal(
          await load({ key: scriptKey, hwid: 'd', sig }),
          400,
          'Bad loader request: nonce and sig must be given together',
        );
        expectLuaRefusal(
          await load({ key: scriptKey, nonce: 'abc', sig }),
          400,
          'Bad loader request: hwid is required with nonce and sig',
        );
        expectLuaRefusal(
          await load({ key: scriptKey, hwid: 'd', nonce: 'abc', sig: 'xyz' }),
          400,
          'Bad loader request: sig: sig must be 64 hexadecimal characters (HMAC-SHA256)',
        );
        expectLuaRefusal(
          await load({ key: scriptKey }, { 'x-hardware-id': 'x'.repeat(201) }),
          400,
          'Bad loader request: X-Hardware-Id must be at most 200 characters',
        );
      });
    });

    describe('devices', () => {
      it('binds a new device on first use and serves the script byte for byte', async () => {
        await withScript();
        const key = await premiumKey({ maxHardwareBindings: 2 });
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        const bindings = await scriptKeyBindings(t, key.id);
        expect(bindings.map((b) => [b.hardware_id, b.status, b.first_bind_date])).toEqual([
          ['device-1', 'ACTIVE', t.clock.now()],
        ]);
        await t.app.pendingWrites.flush();
        const attempts = await auditRows(t, 'binding_attempt');
        expect(attempts).toHaveLength(1);
        expect(attempts[0]).toMatchObject({
          success: 1,
          license_key: key.scriptKey,
          hardware_id: 'device-1',
          ip_address: '127.0.0.1',
          details: { scriptKeyId: key.id, activeBindings: 1, maxBindings: 2 },
        });
      });

      it('refuses a device beyond the limit, auditing the failed attempt', async () => {
        await withScript();
        const key = await premiumKey({ maxHardwareBindings: 2 });
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        expectServed(await load({ key: key.scriptKey, hwid: 'device-2' }));
        expectLuaRefusal(
          await load({ key: key.scriptKey, hwid: 'device-3' }),
          403,
          'This key is already bound to 2 devices: the device limit is reached. Reset your devices at http://localhost:80/key',
        );
        // The bound devices keep working.
        expectServed(await load({ key: key.scriptKey, hwid: 'device-2' }));
        expect((await scriptKeyBindings(t, key.id)).map((b) => b.hardware_id)).toEqual([
          'device-1',
          'device-2',
        ]);
        await t.app.pendingWrites.flush();
        const attempts = await auditRows(t, 'binding_attempt');
        expect(attempts.map((a) => [a.hardware_id, a.success, a.details.activeBindings])).toEqual([
          ['device-1', 1, 1],
          ['device-2', 1, 2],
          ['device-3', 0, 2],
        ]);
      });

      it('says so when the single device allowed is taken', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        expectLuaRefusal(
          await load({ key: key.scriptKey, hwid: 'device-2' }),
          403,
          'This key is already bound to 1 device: the device limit is reached. Reset your devices at http://localhost:80/key',
        );
      });

      it('takes the device id from X-Hardware-Id, the query winning when both are given', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey }, { 'x-hardware-id': 'device-1' }));
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }, { 'x-hardware-id': 'device-2' }));
        expectLuaRefusal(
          await load({ key: key.scriptKey }, { 'x-hardware-id': 'device-2' }),
          403,
          'This key is already bound to 1 device: the device limit is reached. Reset your devices at http://localhost:80/key',
        );
        expect((await scriptKeyBindings(t, key.id)).map((b) => b.hardware_id)).toEqual(['device-1']);
      });

      it('refuses a revoked device, which does not free its place for another', async () => {
        await withScript();
        const key = await premiumKey({ maxHardwareBindings: 2 });
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        const [binding] = await scriptKeyBindings(t, key.id);
        const revoked = await admin('POST', '/api/admin/license/revoke-binding', { bindingId: binding!.id });
        expect(revoked.statusCode, revoked.body).toBe(200);
        expectLuaRefusal(
          await load({ key: key.scriptKey, hwid: 'device-1' }),
          403,
          ACCESS_TEXTS.revokedDevice,
        );
        // A revoked device no longer counts: another one may take the place.
        expectServed(await load({ key: key.scriptKey, hwid: 'device-2' }));
        expectServed(await load({ key: key.scriptKey, hwid: 'device-3' }));
      });

      it('refuses a device revoked behind the cache once the change is published', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        await t.ctx.db.updateTable('hardware_bindings').set({ status: 'REVOKED' }).execute();
        await publishScriptKeyChanged(t.ctx, key.scriptKey);
        expectLuaRefusal(
          await load({ key: key.scriptKey, hwid: 'device-1' }),
          403,
          ACCESS_TEXTS.revokedDevice,
        );
      });
    });

    describe('without a device id', () => {
      it('answers a Lua bootstrap that calls the same URL again with the device id', async () => {
        await withScript();
        const key = await premiumKey();
        const res = await load({ key: key.scriptKey });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(findLuaSyntaxError(res.body)).toBeNull();
        const query = new URLSearchParams({ script: SCRIPT, key: key.scriptKey }).toString();
        expect(res.body).toContain(
          `local url = "http://localhost:80/api/script/loader?${query}" .. "&hwid=" ..`,
        );
        expect(res.body).toContain('gethwid');
        expect(res.body).toContain('game:GetService("RbxAnalyticsService"):GetClientId()');
        // What it loads gets the key and device from it (the served script's text holds neither).
        expect(res.body).toContain(`loadstring(game:HttpGet(url))({ key = "${key.scriptKey}", hwid = id })`);
        // Nothing bound, nothing counted: the device has not identified itself yet.
        expect(await scriptKeyBindings(t, key.id)).toEqual([]);
      });

      it('writes the URL as a Lua string that reads back exactly, whatever the query holds', async () => {
        await withScript();
        const key = await premiumKey();
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/script/loader?script=${SCRIPT}&key=${key.scriptKey}&x=%22%5C%0A%5D%5D`,
        });
        expect(res.statusCode).toBe(200);
        expect(findLuaSyntaxError(res.body)).toBeNull();
        expect(res.body).toContain(`&x=%22%5C%0A%5D%5D" .. "&hwid="`);
      });
    });

    describe('usage', () => {
      const keyRow = (id: number) =>
        t.ctx.db.selectFrom('script_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const usageRows = () => t.ctx.db.selectFrom('usage_daily').selectAll().orderBy('day').execute();

      it('counts every served call once the pending writes are flushed, refusals and bootstraps not', async () => {
        await withScript();
        const key = await premiumKey({ maxHardwareBindings: 2 });
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        t.clock.advance(5000);
        expectServed(await load({ key: key.scriptKey, hwid: 'device-2' }));
        t.clock.advance(5000);
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        expect((await load({ key: key.scriptKey })).statusCode).toBe(200); // the bootstrap
        expect(loaderStatus(await load({ key: key.scriptKey, hwid: 'device-3' }))).toBe(403);
        expect((await keyRow(key.id)).usage_count).toBe(0);

        await t.app.pendingWrites.flush();
        expect(await keyRow(key.id)).toMatchObject({ usage_count: 3, last_used: t.clock.now() });
        const bindings = await scriptKeyBindings(t, key.id);
        expect(bindings.map((b) => [b.hardware_id, b.last_used_date])).toEqual([
          ['device-1', t.clock.now()],
          ['device-2', t.clock.now() - 5000],
        ]);
        expect(await usageRows()).toEqual([{ day: usageDay(t.clock.now()), key: key.scriptKey, uses: 3 }]);

        // The next batch adds to the same rows.
        expectServed(await load({ key: key.scriptKey, hwid: 'device-2' }));
        await t.app.pendingWrites.flush();
        expect((await keyRow(key.id)).usage_count).toBe(4);
        expect(await usageRows()).toEqual([{ day: usageDay(t.clock.now()), key: key.scriptKey, uses: 4 }]);
      });

      it('counts uses on each side of midnight towards their own day', async () => {
        t.clock.set(Date.UTC(2026, 10, 22, 23, 59, 59));
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        t.clock.advance(2000);
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        await t.app.pendingWrites.flush();
        expect(await usageRows()).toEqual([
          { day: '2026-11-22', key: key.scriptKey, uses: 2 },
          { day: '2026-11-23', key: key.scriptKey, uses: 1 },
        ]);
      });
    });

    describe('changes made by the administrator', () => {
      it('refuses a key the admin switches off at once, and serves it again once switched on', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        const off = await admin('POST', '/api/admin/script-keys/toggle-status', { keyId: key.id });
        expect(off.statusCode, off.body).toBe(200);
        expectLuaRefusal(await load({ key: key.scriptKey, hwid: 'device-1' }), 403, ACCESS_TEXTS.inactiveKey);
        const on = await admin('POST', '/api/admin/script-keys/toggle-status', { keyId: key.id });
        expect(on.statusCode, on.body).toBe(200);
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
      });

      it('refuses a key the admin deleted as unknown', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        const deleted = await admin('DELETE', '/api/admin/script-keys/delete', { keyId: key.id });
        expect(deleted.statusCode, deleted.body).toBe(200);
        expectLuaRefusal(await load({ key: key.scriptKey, hwid: 'device-1' }), 403, ACCESS_TEXTS.unknownKey);
      });

      it('serves a saved script fresh, follows its access type and forgets it once deleted', async () => {
        await withScript();
        const key = await premiumKey();
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }));
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/save',
          headers: { cookie: t.cookie },
          payload: { filename: SCRIPT, content: 'return "premium v2"\n' },
        });
        expect(saved.statusCode).toBe(200);
        expectServed(await load({ key: key.scriptKey, hwid: 'device-1' }), 'return "premium v2"\n');

        const setAccess = (accessType: string) =>
          t.app.inject({
            method: 'PUT',
            url: `/api/admin/scripts/${SCRIPT}/access-type`,
            headers: { cookie: t.cookie },
            payload: { accessType },
          });
        expect((await setAccess('FREE')).statusCode).toBe(200);
        expectServed(await load({}), 'return "premium v2"\n');
        expect((await setAccess('PREMIUM')).statusCode).toBe(200);
        expectLuaRefusal(await load({}), 401, ACCESS_TEXTS.keyRequired);

        const removed = await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/scripts/${SCRIPT}`,
          headers: { cookie: t.cookie },
        });
        expect(removed.statusCode).toBe(200);
        expectLuaRefusal(
          await load({ key: key.scriptKey, hwid: 'device-1' }),
          404,
          `Script not found: ${SCRIPT}`,
        );
      });
    });
  });
}
