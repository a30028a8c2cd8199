import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertScriptKeyBinding, insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { insertRedemptionCode } from '../loader/script-access.fixtures.ts';

/*
 * Admin dashboards hear about every licensing change at once (licensing_changed), so the figures
 * and lists refresh without waiting for their 30 s poll; refused changes say nothing.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: licensing_changed`, () => {
    const t = useTestApp(dialect, { signIn: true });

    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Every message published to admin dashboards from now on. */
    const adminMessages = () => {
      const messages: unknown[] = [];
      t.ctx.bus.subscribe('admin', (message) => messages.push(message));
      return messages;
    };
    const changed = (entity: string) => ({ type: 'licensing_changed', payload: { entity } });
    const admin = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: t.cookie }, payload });

    it('is published when a code is redeemed, and not when a redemption is refused', async () => {
      const { code } = await insertRedemptionCode(t);
      const messages = adminMessages();
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code: 'SCANLINE-NONE-0000-0000-0000', hwid: 'device-1' },
      });
      expect(refused.statusCode).toBe(404);
      expect(messages).toEqual([]);

      const res = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code, hwid: 'device-1' },
      });
      expect(res.statusCode).toBe(200);
      expect(messages).toEqual([changed('redemption_code')]);
    });

    it('is published for license keys created, revoked and deleted', async () => {
      const messages = adminMessages();
      const created = await admin('POST', '/api/admin/license-keys', { keyType: 'PREMIUM', maxBindings: 1 });
      expect(created.statusCode).toBe(201);
      const { id } = created.json().licenseKey;
      expect((await admin('POST', `/api/admin/license-keys/${id}/revoke`)).statusCode).toBe(200);
      expect((await admin('POST', `/api/admin/license-keys/${id}/revoke`)).statusCode).toBe(409);
      expect((await admin('DELETE', `/api/admin/license-keys/${id}`)).statusCode).toBe(200);
      expect(messages).toEqual([changed('license_key'), changed('license_key'), changed('license_key')]);
    });

    it('is published for script keys created, switched and deleted, and codes created and deleted', async () => {
      const messages = adminMessages();
      const key = await admin('POST', '/api/admin/script-keys/create', { scriptType: 'PREMIUM' });
      expect(key.statusCode).toBe(201);
      const keyId = key.json().scriptKey.id;
      expect((await admin('POST', '/api/admin/script-keys/toggle-status', { keyId })).statusCode).toBe(200);
      expect((await admin('DELETE', '/api/admin/script-keys/delete', { keyId })).statusCode).toBe(200);

      const code = await admin('POST', '/api/admin/create-redemption-key', {});
      expect(code.statusCode).toBe(201);
      const codeId = code.json().redemptionKey.id;
      expect((await admin('DELETE', `/api/admin/redemption-keys/${codeId}`)).statusCode).toBe(200);
      expect(messages).toEqual([
        changed('script_key'),
        changed('script_key'),
        changed('script_key'),
        changed('redemption_code'),
        changed('redemption_code'),
      ]);
    });

    it('is published when a device binding is revoked', async () => {
      const key = await insertTestScriptKey(t);
      const bindingId = await insertScriptKeyBinding(t, key.id, 'device-1');
      const messages = adminMessages();
      const res = await admin('POST', '/api/admin/license/revoke-binding', { bindingId });
      expect(res.statusCode).toBe(200);
      expect(messages).toContainEqual(changed('hardware_binding'));
    });

    it('keeps a redemption that succeeded when the notice cannot be sent', async () => {
      const { code } = await insertRedemptionCode(t);
      vi.spyOn(t.ctx.bus, 'publish').mockRejectedValue(new Error('bus down'));
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code, hwid: 'device-1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect(logged).toHaveBeenCalled();
    });
  });
}
