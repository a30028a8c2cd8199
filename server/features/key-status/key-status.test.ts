import { describe, expect, it } from 'vitest';
import { HWID_RESET_WINDOW_MS, KEY_STATUS_TEXTS } from '../../../common/key-status.ts';
import { insertScriptKeyBinding } from '../../test/fixtures.ts';
import { buildTestApp, DIALECTS, useTestApp } from '../../test/helper.ts';
import {
  auditRows,
  callLoader,
  insertTestScriptKey,
  savePremiumScript,
  scriptKeyBindings,
} from '../loader/script-access.fixtures.ts';

const HOUR_MS = 60 * 60 * 1000;
const SCRIPT = 'premium.lua';

for (const dialect of DIALECTS) {
  describe(`${dialect}: My key (key status and device reset)`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { RATE_LIMIT_KEY: '5' } });

    const status = (key: unknown, ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/api/script/key-status', payload: { key }, remoteAddress: ip });
    const reset = (key: unknown, ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/api/script/reset-hwid', payload: { key }, remoteAddress: ip });
    const grant = (id: number, count: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/script-keys/${id}/grant-resets`,
        headers: { cookie: t.cookie },
        payload: { count },
      });
    const setResetsPerWeek = (hwidResetsPerWeek: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie },
        payload: { totalSlots: 30, paymentWallets: {}, hwidResetsPerWeek },
      });

    it('shows the type, status, expiry, devices with masked ids, and the resets left', async () => {
      const expiresAt = t.clock.now() + 48 * HOUR_MS;
      const key = await insertTestScriptKey(t, { scriptType: 'VIP', maxHardwareBindings: 3, expiresAt });
      await insertScriptKeyBinding(t, key.id, 'HWID-ABCDEFGHIJKL-1234');
      await insertScriptKeyBinding(t, key.id, 'REVOKED-DEVICE-0000', { status: 'REVOKED' });
      const res = await status(key.scriptKey);
      expect(res.statusCode, res.body).toBe(200);
      const first = new Date(t.clock.now()).toISOString();
      expect(res.json()).toEqual({
        type: 'VIP',
        status: 'Active',
        disabledReason: null,
        expiresAt: new Date(expiresAt).toISOString(),
        maxDevices: 3,
        devices: [{ id: 'HWID************1234', firstSeen: first, lastSeen: first }],
        resetsLeft: 1,
        nextResetAt: null,
        scriptKey: key.scriptKey,
      });
      expect(res.body).not.toContain('ABCDEFGHIJKL');
    });

    it('answers one generic 404 for an unknown, wrong-case or malformed key', async () => {
      const key = await insertTestScriptKey(t);
      const bodies = [];
      let caller = 0;
      for (const given of [`SK-${'0'.repeat(64)}`, key.scriptKey.toUpperCase(), 'not a key', '']) {
        for (const call of [status, reset]) {
          // Each from its own address, so the per-IP limit stays out of it.
          caller += 1;
          const res = await call(given, `10.0.1.${caller}`);
          expect(res.statusCode, `${given}: ${res.body}`).toBe(404);
          bodies.push(res.body);
        }
      }
      expect(new Set(bodies)).toEqual(new Set([JSON.stringify({ error: KEY_STATUS_TEXTS.notFound })]));
    });

    it('resets every device once a week, then refuses with 429 and when the next reset is possible', async () => {
      const key = await insertTestScriptKey(t, {
        maxHardwareBindings: 2,
        expiresAt: t.clock.now() + 30 * 24 * HOUR_MS,
      });
      await insertScriptKeyBinding(t, key.id, 'device-1');
      await insertScriptKeyBinding(t, key.id, 'device-2');
      const resetAt = t.clock.now();
      const nextResetAt = new Date(resetAt + HWID_RESET_WINDOW_MS).toISOString();

      const done = await reset(key.scriptKey);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toEqual({ removed: 2, resetsLeft: 0, nextResetAt });
      expect(await scriptKeyBindings(t, key.id)).toEqual([]);
      expect((await status(key.scriptKey)).json()).toMatchObject({ devices: [], resetsLeft: 0, nextResetAt });

      t.clock.advance(HWID_RESET_WINDOW_MS - 1000);
      const refused = await reset(key.scriptKey);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: KEY_STATUS_TEXTS.noResetsLeft, nextResetAt });

      t.clock.advance(1000);
      const again = await reset(key.scriptKey);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ removed: 0, resetsLeft: 0 });
    });

    it('takes its weekly budget from System Configuration', async () => {
      expect((await setResetsPerWeek(2)).json().configuration.hwidResetsPerWeek).toBe(2);
      // A PUT without the field keeps it.
      const kept = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie },
        payload: { totalSlots: 40, paymentWallets: {} },
      });
      expect(kept.json().configuration).toMatchObject({ totalSlots: 40, hwidResetsPerWeek: 2 });
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie },
      });
      expect(read.json().configuration.hwidResetsPerWeek).toBe(2);

      const key = await insertTestScriptKey(t);
      expect((await reset(key.scriptKey)).json().resetsLeft).toBe(1);
      expect((await reset(key.scriptKey)).json().resetsLeft).toBe(0);
      expect((await reset(key.scriptKey)).statusCode).toBe(429);
    });

    it('lets an admin grant extra resets, spent after the weekly budget, and audits the grant', async () => {
      const key = await insertTestScriptKey(t);
      expect((await grant(key.id, 0)).statusCode).toBe(400);
      expect((await grant(key.id, 11)).statusCode).toBe(400);
      expect((await grant(999_999, 1)).statusCode).toBe(404);
      const granted = await grant(key.id, 2);
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json().scriptKey).toMatchObject({
        id: key.id,
        scriptKey: key.scriptKey,
        extraResets: 2,
      });
      expect((await status(key.scriptKey)).json().resetsLeft).toBe(3);

      expect((await reset(key.scriptKey)).json().resetsLeft).toBe(2);
      expect((await reset(key.scriptKey)).json().resetsLeft).toBe(1);
      const last = await reset(key.scriptKey);
      expect(last.json()).toMatchObject({
        resetsLeft: 0,
        nextResetAt: new Date(t.clock.now() + HWID_RESET_WINDOW_MS).toISOString(),
      });
      expect((await reset(key.scriptKey)).statusCode).toBe(429);

      const grants = await auditRows(t, 'hwid_resets_granted');
      expect(grants).toHaveLength(1);
      expect(grants[0]).toMatchObject({
        license_key: key.scriptKey,
        details: { by: 'admin', scriptKeyId: key.id, count: 2 },
      });
    });

    it('audits each reset with the buyer and the IP, and lists it in the bindings history', async () => {
      const key = await insertTestScriptKey(t);
      await insertScriptKeyBinding(t, key.id, 'device-1');
      expect((await reset(key.scriptKey, '10.9.8.7')).statusCode).toBe(200);
      const rows = await auditRows(t, 'hwid_reset');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        success: 1,
        license_key: key.scriptKey,
        ip_address: '10.9.8.7',
        details: { by: 'buyer', scriptKeyId: key.id, removed: 1 },
      });
      const bindings = await t.app.inject({
        method: 'GET',
        url: '/api/admin/hardware/bindings',
        headers: { cookie: t.cookie },
      });
      expect(bindings.json().resets).toEqual([
        {
          id: expect.any(Number),
          scriptKey: key.scriptKey,
          by: 'buyer',
          ipAddress: '10.9.8.7',
          removed: 1,
          resetAt: new Date(t.clock.now()).toISOString(),
        },
      ]);
    });

    it('after a reset, the loader binds the new device; before it, the limit answer says where to reset', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, 'return "premium"\n');
      const key = await insertTestScriptKey(t);
      const load = (hwid: string) =>
        callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid }, { accept: 'application/json' });
      expect((await load('old-pc')).statusCode).toBe(200);
      const full = await load('new-pc');
      expect(full.statusCode).toBe(403);
      expect(full.json().error).toContain(`${KEY_STATUS_TEXTS.resetHint} http://localhost:80/key`);
      expect(full.headers['x-scanline-refusal']).toBe('403 device-limit');

      expect((await reset(key.scriptKey)).json().removed).toBe(1);
      const served = await load('new-pc');
      expect(served.statusCode, served.body).toBe(200);
      expect((await scriptKeyBindings(t, key.id)).map((b) => [b.hardware_id, b.status])).toEqual([
        ['new-pc', 'ACTIVE'],
      ]);
    });

    it("lets an admin reset a key's devices without spending the buyer's resets, audited by 'admin'", async () => {
      const key = await insertTestScriptKey(t, { expiresAt: t.clock.now() - 1 });
      await insertScriptKeyBinding(t, key.id, 'device-1');
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/script-keys/${key.id}/reset-hwid`,
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ removed: 1, resetsLeft: 1, nextResetAt: null });
      expect(await scriptKeyBindings(t, key.id)).toEqual([]);
      const rows = await auditRows(t, 'hwid_reset');
      expect(rows.map((row) => row.details.by)).toEqual(['admin']);
      const history = await t.app.inject({
        method: 'GET',
        url: '/api/admin/hardware/bindings',
        headers: { cookie: t.cookie },
      });
      expect(history.json().resets).toMatchObject([{ scriptKey: key.scriptKey, by: 'admin', removed: 1 }]);
      const signedOut = await t.app.inject({
        method: 'POST',
        url: `/api/admin/script-keys/${key.id}/reset-hwid`,
      });
      expect(signedOut.statusCode).toBe(401);
    });

    it('refuses to reset an expired or switched-off key with 403', async () => {
      const expired = await insertTestScriptKey(t, { expiresAt: t.clock.now() - 1 });
      const off = await insertTestScriptKey(t, { isActive: 0 });
      await insertScriptKeyBinding(t, expired.id, 'device-1');
      const refused = await reset(expired.scriptKey);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: KEY_STATUS_TEXTS.expired });
      expect(await scriptKeyBindings(t, expired.id)).toHaveLength(1);
      expect((await reset(off.scriptKey)).json()).toEqual({ error: KEY_STATUS_TEXTS.inactive });
      expect((await status(expired.scriptKey)).json().status).toBe('Expired');
      expect((await status(off.scriptKey)).json().status).toBe('Inactive');
    });

    it('limits calls per IP and per key', async () => {
      const key = await insertTestScriptKey(t);
      for (let i = 0; i < 5; i++) expect((await status(key.scriptKey, '10.0.0.1')).statusCode).toBe(200);
      expect((await status(key.scriptKey, '10.0.0.1')).statusCode).toBe(429);
      // The same key from another IP: its own limit is spent too.
      expect((await status(key.scriptKey, '10.0.0.2')).statusCode).toBe(429);
      // Another key from that second IP still answers.
      const other = await insertTestScriptKey(t);
      expect((await status(other.scriptKey, '10.0.0.2')).statusCode).toBe(200);
      // A reset refused by the limit says so in the usual {error}.
      const limited = await reset(key.scriptKey, '10.0.0.3');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toMatch(/^Too many requests/);
    });

    it('keeps the key out of the request log', async () => {
      const lines: string[] = [];
      const logged = await buildTestApp(
        dialect,
        {},
        {
          app: { logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } } },
        },
      );
      try {
        const key = await insertTestScriptKey(logged);
        for (const url of ['/api/script/key-status', '/api/script/reset-hwid']) {
          const res = await logged.app.inject({ method: 'POST', url, payload: { key: key.scriptKey } });
          expect(res.statusCode, res.body).toBe(200);
        }
        expect(lines.join('')).toContain('/api/script/reset-hwid');
        expect(lines.join('')).not.toContain(key.scriptKey);
      } finally {
        await logged.close();
      }
    });
  });
}
