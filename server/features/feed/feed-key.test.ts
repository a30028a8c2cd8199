import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { HOUR_MS, insertRedemptionCode } from '../loader/script-access.fixtures.ts';

/*
 * Issue 36 on the feed socket: a socket opened with a license key learns its key's expiry (and a
 * renewal's new one), and is told when a reset removed its device, then closed.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the feed socket and the buyer's key`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });
    const clients: TestClient[] = [];
    afterEach(() => {
      for (const client of clients.splice(0)) client.ws.terminate();
    });

    it('tells a license key socket its expiry, a renewal, and that a reset removed its device', async () => {
      const expiresAt = new Date(t.clock.now() + 24 * HOUR_MS).toISOString();
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM', maxBindings: 1, expiresAt },
      });
      const { licenseKey } = made.json().licenseKey as { licenseKey: string };
      const client = await connectTestClient(
        `${t.socketUrl}/feed?${new URLSearchParams({ key: licenseKey, hwid: 'OLD-PC' })}`,
        undefined,
        { origin: null },
      );
      clients.push(client);
      const ready = await client.next((f) => f.type === 'ready');
      expect(ready.payload).toMatchObject({ tier: 'PREMIUM', keyExpiresAt: expiresAt });

      const code = await insertRedemptionCode(t, { validityDuration: 24 });
      const renewed = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code: code.code, key: licenseKey },
      });
      expect(renewed.statusCode, renewed.body).toBe(200);
      const later = new Date(Date.parse(expiresAt) + 24 * HOUR_MS).toISOString();
      expect((await client.next((f) => f.type === 'key')).payload).toEqual({ keyExpiresAt: later });

      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/script/reset-hwid',
        payload: { key: licenseKey },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const error = await client.next((f) => f.type === 'error');
      expect((error.payload as { error: string }).error).toMatch(/^This device was removed from the key: /);
      expect((await client.waitClosed()).code).toBe(1008);
    });
  });
}
