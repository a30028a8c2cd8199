import { describe, expect, it } from 'vitest';
import { REDEMPTION_TEXTS } from '../../../common/redemption.ts';
import type { RedeemResponse } from '../../../common/script-access.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import {
  auditRows,
  callLoader,
  HOUR_MS,
  insertRedemptionCode,
  savePremiumScript,
  scriptKeyBindings,
  scriptOf,
} from './script-access.fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: redeeming a code`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const redeem = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/script/redeem', payload: payload as object });
    const codeRow = (id: number) =>
      t.ctx.db.selectFrom('redemption_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const scriptKeyRows = () => t.ctx.db.selectFrom('script_keys').selectAll().execute();

    it('turns the code into a script key of its type, valid its hours, bound to the redeeming device', async () => {
      const { id, code } = await insertRedemptionCode(t, {
        keyType: 'VIP',
        maxHardwareBindings: 3,
        validityDuration: 48,
      });
      const device = { deviceName: 'Alice PC', os: 'Windows 11', architecture: 'x64', deviceType: 'desktop' };
      const res = await redeem({ code, hwid: 'device-alice', device });
      expect(res.statusCode).toBe(200);
      const body: RedeemResponse = res.json();
      expect(body).toEqual({
        success: true,
        scriptKey: expect.stringMatching(/^SK-[0-9a-f]{64}$/),
        scriptType: 'VIP',
        expiresAt: new Date(t.clock.now() + 48 * HOUR_MS).toISOString(),
        maxHardwareBindings: 3,
      });

      expect(await codeRow(id)).toMatchObject({ is_redeemed: 1, redeemed_at: t.clock.now() });
      const [key] = await scriptKeyRows();
      expect(key).toMatchObject({
        script_key: body.scriptKey,
        script_type: 'VIP',
        is_active: 1,
        max_hardware_bindings: 3,
        expires_at: t.clock.now() + 48 * HOUR_MS,
        redemption_key_id: id,
        usage_count: 0,
      });
      const bindings = await scriptKeyBindings(t, key!.id);
      expect(bindings).toHaveLength(1);
      expect(bindings[0]).toMatchObject({ hardware_id: 'device-alice', status: 'ACTIVE' });
      expect(JSON.parse(bindings[0]?.device_info ?? 'null')).toEqual(device);

      const [redeemed] = await auditRows(t, 'code_redeemed');
      expect(redeemed).toMatchObject({
        success: 1,
        license_key: body.scriptKey,
        hardware_id: 'device-alice',
        details: { redemptionKeyId: id, scriptKeyId: key!.id, keyType: 'VIP' },
      });
    });

    it('accepts the code in lower case with spaces around it', async () => {
      const { code } = await insertRedemptionCode(t);
      const res = await redeem({ code: `  ${code.toLowerCase()} `, hwid: 'device-1' });
      expect(res.statusCode).toBe(200);
    });

    it('gives a key that loads the premium script on the redeeming device without a second binding', async () => {
      await savePremiumScript(t, t.cookie, 'premium.lua', 'return "premium"\n');
      const { code } = await insertRedemptionCode(t);
      const { scriptKey } = (await redeem({ code, hwid: 'device-1' })).json() as RedeemResponse;
      const loaded = await callLoader(t, { script: 'premium.lua', key: scriptKey, hwid: 'device-1' });
      expect(loaded.statusCode).toBe(200);
      expect(scriptOf(loaded)).toBe('return "premium"\n');
      const [key] = await scriptKeyRows();
      expect(await scriptKeyBindings(t, key!.id)).toHaveLength(1);
    });

    it('refuses an unknown code with 404, a redeemed one with 409 and an expired one with 410', async () => {
      const unknown = await redeem({ code: 'SCANLINE-ZZZZ-ZZZZ-ZZZZ-ZZZZ', hwid: 'device-1' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: REDEMPTION_TEXTS.invalidCode });

      const { code } = await insertRedemptionCode(t);
      expect((await redeem({ code, hwid: 'device-1' })).statusCode).toBe(200);
      const again = await redeem({ code, hwid: 'device-2' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: REDEMPTION_TEXTS.alreadyRedeemed });

      const expiring = await insertRedemptionCode(t, { expiresAt: t.clock.now() + 1000 });
      t.clock.advance(1000);
      const expired = await redeem({ code: expiring.code, hwid: 'device-1' });
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toEqual({ error: REDEMPTION_TEXTS.expired });
      expect(await scriptKeyRows()).toHaveLength(1);
    });

    it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
      const { id, code } = await insertRedemptionCode(t);
      const cases: [unknown, string][] = [
        [{ hwid: 'device-1' }, 'code is required'],
        [{ code, hwid: '   ' }, 'hwid must not be empty'],
        [{ code: 42, hwid: 'device-1' }, 'code is required'],
        [{ code, hwid: 'x'.repeat(201) }, 'hwid must be at most 200 characters'],
        [
          { code, hwid: 'device-1', device: { os: 'x'.repeat(101) } },
          'device.os: os must be at most 100 characters',
        ],
        [[], 'Request body must be a JSON object with code and hwid'],
      ];
      for (const [payload, error] of cases) {
        const res = await redeem(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error).toContain(error);
      }
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        headers: { 'content-type': 'application/json' },
        payload: '{"code": ',
      });
      expect(broken.statusCode).toBe(400);
      expect((await codeRow(id)).is_redeemed).toBe(0);
      expect(await scriptKeyRows()).toHaveLength(0);
    });
  });
}
