import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { sha256 } from '../auth/secret.ts';
import { ACCESS_TEXTS } from '../loader/loader-access.ts';
import {
  callLoader,
  HOUR_MS,
  insertRedemptionCode,
  insertTestScriptKey,
  savePremiumScript,
} from '../loader/script-access.fixtures.ts';

/*
 * Issue 36: one key a buyer can hold. A license key works wherever a key is asked for (loader, feed,
 * /key) as the script key it resolves to; /key takes the used code and the order link too; a reset
 * sticks for a cool-down; a second code renews the running key.
 */
const SCRIPT = 'premium.lua';
const JSON_ACCEPT = { accept: 'application/json' };

for (const dialect of DIALECTS) {
  describe(`${dialect}: one key a buyer can hold`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { RATE_LIMIT_KEY: '100' } });

    const post = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, payload });
    const status = (key: string) => post('/api/script/key-status', { key });
    const feed = (key: string, hwid: string) =>
      t.injectBare({ method: 'GET', url: `/api/script/feed?${new URLSearchParams({ key, hwid })}` });
    const load = (key: string, hwid: string) => callLoader(t, { script: SCRIPT, key, hwid }, JSON_ACCEPT);
    const createLicense = async (body: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM', maxBindings: 1, ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().licenseKey as { id: number; licenseKey: string };
    };
    const usedSlots = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration/slot-usage',
        headers: { cookie: t.cookie },
      });
      return res.json().slotUsage.usedSlots as number;
    };
    const dashboardKeys = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie: t.cookie },
      });
      return res.json().stats.totalKeys as number;
    };

    it('accepts a license key in the loader, the feed and /key, as one key in one slot', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'print("premium")');
      const slotsBefore = await usedSlots();
      const keysBefore = await dashboardKeys();
      const expiresAt = new Date(t.clock.now() + 72 * HOUR_MS).toISOString();
      const license = await createLicense({ keyType: 'VIP', maxBindings: 2, expiresAt });

      const loaded = await load(license.licenseKey, 'PC-A');
      expect(loaded.statusCode, loaded.body).toBe(200);
      expect(loaded.body).toContain('print("premium")');
      // Typed in lower case, it is the same key.
      expect((await load(license.licenseKey.toLowerCase(), 'PC-A')).statusCode).toBe(200);

      const polled = await feed(license.licenseKey, 'PC-A');
      expect(polled.statusCode, polled.body).toBe(200);
      expect(polled.json()).toMatchObject({ tier: 'PREMIUM', keyExpiresAt: expiresAt });

      const mine = await status(license.licenseKey);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json()).toMatchObject({ type: 'VIP', status: 'Active', maxDevices: 2, expiresAt });
      expect(mine.json().devices).toHaveLength(1);
      const scriptKey = mine.json().scriptKey as string;
      expect(scriptKey).toMatch(/^SK-[0-9a-f]{64}$/);
      // The script key it resolves to is the same key: same devices, same answer.
      expect((await status(scriptKey)).json().devices).toHaveLength(1);
      expect((await load(scriptKey, 'PC-A')).statusCode).toBe(200);

      // License Keys shows the key in use: its device and its uses.
      await t.app.pendingWrites.flush();
      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
      });
      const row = listed.json().licenseKeys.find((k: { id: number }) => k.id === license.id);
      expect(row).toMatchObject({ activeBindings: 1, usageCount: 4 });
      expect(row.lastUsed).not.toBeNull();

      // One buyer, one slot, one key on the dashboard.
      expect(await usedSlots()).toBe(slotsBefore + 1);
      expect(await dashboardKeys()).toBe(keysBefore + 1);
    });

    it('gives a license key made before this model exactly one script key, however many ask at once', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'print("premium")');
      const licenseKey = 'SCAN-AAAAA-BBBBB-CCCCC-DDDD2';
      await t.ctx.db
        .insertInto('license_keys')
        .values({
          license_key: licenseKey,
          key_type: 'PREMIUM',
          status: 'ACTIVE',
          max_bindings: 3,
          expires_at: null,
          notes: null,
          created_at: t.clock.now(),
          script_key_id: null,
        })
        .execute();
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => load(licenseKey, `PC-${i}`)));
      expect(
        answers.map((res) => res.statusCode).filter((code) => code === 200),
        answers.map((res) => res.body).join('\n'),
      ).toHaveLength(3);
      const keys = await t.ctx.db
        .selectFrom('script_keys')
        .innerJoin('license_keys', 'license_keys.id', 'script_keys.license_key_id')
        .select(['script_keys.id', 'license_keys.script_key_id'])
        .where('license_keys.license_key', '=', licenseKey)
        .execute();
      expect(keys).toHaveLength(1);
      expect(keys[0]?.script_key_id).toBe(keys[0]?.id);
    });

    it("takes a license key in the universal script's redeem box as the buyer's key", async () => {
      const license = await createLicense({ maxBindings: 1 });
      const first = await post('/api/script/redeem', { code: license.licenseKey, hwid: 'PC-A' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ success: true, scriptType: 'PREMIUM', maxHardwareBindings: 1 });
      const scriptKey = first.json().scriptKey as string;
      expect((await status(license.licenseKey)).json()).toMatchObject({ scriptKey, devices: [{}] });
      // Again from the same PC: the same key; from a second PC: the device limit, as the loader says it.
      expect(
        (await post('/api/script/redeem', { code: license.licenseKey, hwid: 'PC-A' })).json().scriptKey,
      ).toBe(scriptKey);
      const second = await post('/api/script/redeem', { code: license.licenseKey, hwid: 'PC-B' });
      expect(second.statusCode).toBe(403);
      expect(second.json().error).toBe(ACCESS_TEXTS.deviceLimit(1));
    });

    it('stops a revoked license key everywhere', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'print("premium")');
      const license = await createLicense({});
      expect((await load(license.licenseKey, 'PC-A')).statusCode).toBe(200);
      const revoked = await t.app.inject({
        method: 'POST',
        url: `/api/admin/license-keys/${license.id}/revoke`,
        headers: { cookie: t.cookie },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const refused = await load(license.licenseKey, 'PC-A');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe(ACCESS_TEXTS.inactiveKey);
    });

    it('finds the key again from the used code or the order link, with the whole script key', async () => {
      const code = await insertRedemptionCode(t, { validityDuration: 24 });
      const redeemed = await post('/api/script/redeem', { code: code.code, hwid: 'OLD-PC' });
      expect(redeemed.statusCode, redeemed.body).toBe(200);
      const scriptKey = redeemed.json().scriptKey as string;

      const byCode = await status(code.code.toLowerCase());
      expect(byCode.statusCode, byCode.body).toBe(200);
      expect(byCode.json()).toMatchObject({ scriptKey, type: 'PREMIUM', resetsLeft: 1 });

      const secret = 'abcdefghijklmnopqrstuv';
      const orderId = 'ORDERabcdef12345';
      await t.ctx.db
        .insertInto('orders')
        .values({
          id: orderId,
          secret_hash: sha256(secret),
          status: 'paid',
          amount: '40',
          currency: 'USD',
          key_type: 'PREMIUM',
          validity_hours: 24,
          max_hardware_bindings: 1,
          redemption_key_id: code.id,
          redemption_code: code.code,
          created_at: t.clock.now(),
          expires_at: t.clock.now() + HOUR_MS,
          paid_at: t.clock.now(),
        })
        .execute();
      const byOrder = await status(`https://shop.example/order/${orderId}#${secret}`);
      expect(byOrder.statusCode, byOrder.body).toBe(200);
      expect(byOrder.json().scriptKey).toBe(scriptKey);
      // The wrong secret proves nothing: the one generic 404.
      const wrong = await status(`https://shop.example/order/${orderId}#${'x'.repeat(22)}`);
      expect(wrong.statusCode).toBe(404);
      // A code never redeemed opens no key.
      const fresh = await insertRedemptionCode(t);
      expect((await status(fresh.code)).statusCode).toBe(404);
      // The used code resets the devices too: the new PC can bind.
      const reset = await post('/api/script/reset-hwid', { key: code.code });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json().removed).toBe(1);
    });

    it('keeps a reset device out for the cool-down, in the loader and the feed', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'print("premium")');
      const key = await insertTestScriptKey(t, {
        maxHardwareBindings: 1,
        expiresAt: t.clock.now() + 30 * 24 * HOUR_MS,
      });
      expect((await load(key.scriptKey, 'PC-A')).statusCode).toBe(200);
      expect((await post('/api/script/reset-hwid', { key: key.scriptKey })).statusCode).toBe(200);

      // PC A's script is still running: refused, by name, and it does not take the place back.
      const again = await load(key.scriptKey, 'PC-A');
      expect(again.statusCode).toBe(403);
      expect(again.json().error).toMatch(/^This device was removed from the key: /);
      expect(again.headers['x-scanline-refusal']).toBe('403 device-removed');
      const polled = await feed(key.scriptKey, 'PC-A');
      expect(polled.statusCode).toBe(403);
      expect(polled.json().error).toMatch(/^This device was removed from the key/);
      // Executors get it in Lua, so the script prints it and stops.
      const lua = await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'PC-A' });
      expect(lua.body).toContain('This device was removed from the key');

      // PC B binds and stays bound; the status shows it, with no reset left.
      expect((await load(key.scriptKey, 'PC-B')).statusCode).toBe(200);
      const mine = (await status(key.scriptKey)).json();
      expect(mine.devices).toHaveLength(1);
      expect(mine.resetsLeft).toBe(0);

      // After the cool-down (a day by default) PC A is an ordinary device again: the key is full.
      t.clock.advance(24 * HOUR_MS + 1000);
      const later = await load(key.scriptKey, 'PC-A');
      expect(later.statusCode).toBe(403);
      expect(later.headers['x-scanline-refusal']).toBe('403 device-limit');
    });

    it('renews a running key with a second code, from the script or from /key', async () => {
      const first = await insertRedemptionCode(t, { validityDuration: 24 });
      const made = await post('/api/script/redeem', { code: first.code, hwid: 'PC-A' });
      const scriptKey = made.json().scriptKey as string;
      const firstExpiry = Date.parse(made.json().expiresAt);
      // Seen by the feed (cached), so the renewal must reach the cache.
      expect((await feed(scriptKey, 'PC-A')).json().keyExpiresAt).toBe(made.json().expiresAt);

      t.clock.advance(2 * HOUR_MS);
      const second = await insertRedemptionCode(t, { validityDuration: 48 });
      const renewed = await post('/api/script/redeem', { code: second.code, hwid: 'PC-A', key: scriptKey });
      expect(renewed.statusCode, renewed.body).toBe(200);
      const expiresAt = new Date(firstExpiry + 48 * HOUR_MS).toISOString();
      expect(renewed.json()).toEqual({ extended: true, expiresAt, addedHours: 48 });
      expect((await feed(scriptKey, 'PC-A')).json().keyExpiresAt).toBe(expiresAt);
      expect((await status(scriptKey)).json().expiresAt).toBe(expiresAt);
      // The renewal code finds the key too.
      expect((await status(second.code)).json().scriptKey).toBe(scriptKey);
      // A spent code renews nothing more.
      const twice = await post('/api/script/redeem', { code: second.code, key: scriptKey });
      expect(twice.statusCode).toBe(409);

      // From /key: no device id, the key given as the used code.
      const third = await insertRedemptionCode(t, { validityDuration: 24 });
      const fromPage = await post('/api/script/redeem', { code: third.code, key: first.code });
      expect(fromPage.statusCode, fromPage.body).toBe(200);
      expect(fromPage.json().expiresAt).toBe(new Date(firstExpiry + 72 * HOUR_MS).toISOString());

      // Types must agree.
      const vip = await insertRedemptionCode(t, { keyType: 'VIP' });
      const mismatch = await post('/api/script/redeem', { code: vip.code, key: scriptKey });
      expect(mismatch.statusCode).toBe(409);
      expect(mismatch.json().error).toBe(
        'This is a VIP code and the key is PREMIUM: a code renews only a key of its own type',
      );
      // Nothing was spent by the refusal.
      expect((await post('/api/script/redeem', { code: vip.code, hwid: 'PC-V' })).statusCode).toBe(200);
      // Without a key a device id is still required.
      const bare = await post('/api/script/redeem', { code: (await insertRedemptionCode(t)).code });
      expect(bare.statusCode).toBe(400);
      expect(bare.json().error).toContain('hwid is required');
    });

    it('renews a key that ran out from now, and refuses an unknown key with the generic 404', async () => {
      const first = await insertRedemptionCode(t, { validityDuration: 1 });
      const made = await post('/api/script/redeem', { code: first.code, hwid: 'PC-A' });
      const scriptKey = made.json().scriptKey as string;
      t.clock.advance(5 * HOUR_MS);
      const code = await insertRedemptionCode(t, { validityDuration: 24 });
      const renewed = await post('/api/script/redeem', { code: code.code, key: scriptKey });
      expect(renewed.json().expiresAt).toBe(new Date(t.clock.now() + 24 * HOUR_MS).toISOString());
      const unknown = await post('/api/script/redeem', {
        code: (await insertRedemptionCode(t)).code,
        key: `SK-${'0'.repeat(64)}`,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('Key not found');
    });
  });
}
