import { describe, expect, it } from 'vitest';
import { insertHardwareBinding, insertScriptKeyBinding, insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

const HOUR_MS = 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: dashboard stats`, () => {
    // The helper's clock starts at 2026-11-22 12:00 UTC.
    const t = useTestApp(dialect, { signIn: true });

    const stats = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const createKey = async (payload: Record<string, unknown> = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM', ...payload },
      });
      expect(res.statusCode).toBe(201);
      return res.json().licenseKey as { id: number };
    };
    const recordUsage = (day: string, key: string, uses: number) =>
      t.ctx.db.insertInto('usage_daily').values({ day, key, uses }).execute();

    it('answers zeros and the current time on an empty database', async () => {
      expect(await stats()).toEqual({
        timestamp: '2026-11-22T12:00:00.000Z',
        stats: {
          totalKeys: 0,
          activeKeys: 0,
          expiredKeys: 0,
          revokedKeys: 0,
          totalBindings: 0,
          activeBindings: 0,
          todayUsage: 0,
          weeklyUsage: 0,
          monthlyUsage: 0,
        },
        sales: {
          today: { orders: 0, amount: 0 },
          week: { orders: 0, amount: 0 },
          currency: 'USD',
          connected: false,
        },
      });
    });

    it('counts keys by derived status as they are created, revoked and expire', async () => {
      await createKey();
      await createKey({ keyType: 'FREE' });
      await createKey({ expiresAt: new Date(t.clock.now() + HOUR_MS).toISOString() });
      const revoked = await createKey({
        keyType: 'VIP',
        expiresAt: new Date(t.clock.now() + HOUR_MS).toISOString(),
      });
      await t.app.inject({
        method: 'POST',
        url: `/api/admin/license-keys/${revoked.id}/revoke`,
        headers: { cookie: t.cookie },
      });

      expect((await stats()).stats).toMatchObject({
        totalKeys: 4,
        activeKeys: 3,
        expiredKeys: 0,
        revokedKeys: 1,
      });

      // A revoked key that also passes its expiry stays REVOKED, not EXPIRED.
      t.clock.advance(HOUR_MS);
      expect((await stats()).stats).toMatchObject({
        totalKeys: 4,
        activeKeys: 2,
        expiredKeys: 1,
        revokedKeys: 1,
      });
    });

    it('counts script keys with license keys: expired first, switched-off ones as revoked', async () => {
      const now = t.clock.now();
      await createKey(); // license key: active
      await insertTestScriptKey(t); // active, never expires
      await insertTestScriptKey(t, { scriptType: 'premium_24h', expiresAt: now + HOUR_MS }); // active for an hour
      await insertTestScriptKey(t, { isActive: 0 }); // switched off
      await insertTestScriptKey(t, { isActive: 0, expiresAt: now + HOUR_MS }); // switched off, expires in an hour
      await insertTestScriptKey(t, { scriptType: 'FREE', expiresAt: now - 1 }); // already expired

      expect((await stats()).stats).toMatchObject({
        totalKeys: 6,
        activeKeys: 3,
        expiredKeys: 1,
        revokedKeys: 2,
      });

      // Past its expiry a switched-off key reads expired, as the script keys screen shows it.
      t.clock.advance(HOUR_MS);
      expect((await stats()).stats).toMatchObject({
        totalKeys: 6,
        activeKeys: 2,
        expiredKeys: 3,
        revokedKeys: 1,
      });
    });

    it('counts script keys toggled and deleted through the admin API', async () => {
      const key = await insertTestScriptKey(t);
      const toggle = await t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/toggle-status',
        headers: { cookie: t.cookie },
        payload: { keyId: key.id },
      });
      expect(toggle.statusCode).toBe(200);
      expect((await stats()).stats).toMatchObject({ totalKeys: 1, activeKeys: 0, revokedKeys: 1 });
      await t.app.inject({
        method: 'DELETE',
        url: '/api/admin/script-keys/delete',
        headers: { cookie: t.cookie },
        payload: { keyId: key.id },
      });
      expect((await stats()).stats).toMatchObject({ totalKeys: 0, activeKeys: 0, revokedKeys: 0 });
    });

    it('counts the devices of script keys with those of license keys', async () => {
      const licenseKey = await createKey({ maxBindings: 5 });
      const scriptKey = await insertTestScriptKey(t, { maxHardwareBindings: 5 });
      await insertHardwareBinding(t, licenseKey.id, 'hw-1');
      await insertScriptKeyBinding(t, scriptKey.id, 'hw-1');
      await insertScriptKeyBinding(t, scriptKey.id, 'hw-2', { status: 'REVOKED' });
      expect((await stats()).stats).toMatchObject({ totalBindings: 3, activeBindings: 2 });
    });

    it('counts all bindings and the ACTIVE ones', async () => {
      const key = await createKey({ maxBindings: 5 });
      await insertHardwareBinding(t, key.id, 'hw-1', 'ACTIVE');
      await insertHardwareBinding(t, key.id, 'hw-2', 'ACTIVE');
      await insertHardwareBinding(t, key.id, 'hw-3', 'REVOKED');
      expect((await stats()).stats).toMatchObject({ totalBindings: 3, activeBindings: 2 });
    });

    it('sums uses for today, the last 7 days and the last 30 days (UTC)', async () => {
      await recordUsage('2026-11-22', 'SCAN-A', 5); // today
      await recordUsage('2026-11-22', 'SCAN-B', 2); // today, another key
      await recordUsage('2026-11-19', 'SCAN-A', 10); // 3 days ago
      await recordUsage('2026-11-16', 'SCAN-A', 20); // 6 days ago: the last day of the week
      await recordUsage('2026-11-15', 'SCAN-A', 100); // 7 days ago: month only
      await recordUsage('2026-10-24', 'SCAN-A', 1000); // 29 days ago: the last day of the month
      await recordUsage('2026-10-23', 'SCAN-A', 10000); // 30 days ago: outside every window
      await recordUsage('2026-11-23', 'SCAN-A', 100000); // tomorrow: not yet

      expect((await stats()).stats).toMatchObject({ todayUsage: 7, weeklyUsage: 37, monthlyUsage: 1137 });
    });

    it('starts a new usage day at UTC midnight', async () => {
      await recordUsage('2026-11-22', 'SCAN-A', 5);
      t.clock.advance(12 * HOUR_MS);
      const body = await stats();
      expect(body.timestamp).toBe('2026-11-23T00:00:00.000Z');
      expect(body.stats).toMatchObject({ todayUsage: 0, weeklyUsage: 5, monthlyUsage: 5 });
    });
  });
}
