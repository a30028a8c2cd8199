import { describe, expect, it } from 'vitest';
import type { HardwareBinding } from '../../../common/hardware-bindings.ts';
import { insertHardwareBinding, insertScriptKeyBinding, insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { onScriptKeyChanged } from '../licensing/script-key-events.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: hardware bindings`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/hardware/bindings', headers: { cookie: t.cookie } });
    const listBindings = async (): Promise<HardwareBinding[]> => (await list()).json().bindings;
    const revoke = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/license/revoke-binding',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const createLicenseKey = async (keyType = 'VIP') => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType, maxBindings: 3 },
      });
      return res.json().licenseKey as { id: number; licenseKey: string };
    };
    const licenseKeyBindingId = async (licenseKeyId: number, hardwareId: string) => {
      await insertHardwareBinding(t, licenseKeyId, hardwareId);
      const row = await t.ctx.db
        .selectFrom('hardware_bindings')
        .select('id')
        .where('license_key_id', '=', licenseKeyId)
        .where('hardware_id', '=', hardwareId)
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const auditRows = (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute();

    describe('listing', () => {
      it("records the device a loader call binds as its executor's User-Agent names it", async () => {
        const scriptKey = await insertTestScriptKey(t, { scriptType: 'premium_24h', maxHardwareBindings: 2 });
        const load = await t.app.inject({
          method: 'GET',
          url: `/api/script/loader?script=scanline-premium.lua&key=${scriptKey.scriptKey}&hwid=hw-delta`,
          headers: { 'user-agent': 'Delta/2.6 (Linux; Android 13)' },
        });
        expect(load.statusCode, load.body).toBe(200);
        const [binding] = await listBindings();
        expect(binding).toMatchObject({
          hardwareId: 'hw-delta',
          deviceInfo: { deviceName: 'Delta 2.6', os: 'Android', deviceType: 'mobile' },
        });
      });

      it('lists the devices of license keys and script keys together, newest first', async () => {
        const licenseKey = await createLicenseKey('VIP');
        const scriptKey = await insertTestScriptKey(t, { scriptType: 'premium_24h', maxHardwareBindings: 2 });
        await insertHardwareBinding(t, licenseKey.id, 'hw-license');
        t.clock.advance(1000);
        const scriptBindingId = await insertScriptKeyBinding(t, scriptKey.id, 'hw-script', {
          deviceInfo: { deviceName: 'Pixel 8', os: 'Android 15', architecture: 'arm64', deviceType: 'phone' },
        });
        const res = await list();
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.count).toBe(2);
        expect(body.timestamp).toBe(new Date(t.clock.now()).toISOString());
        expect(body.bindings).toEqual([
          {
            id: scriptBindingId,
            hardwareId: 'hw-script',
            status: 'ACTIVE',
            firstBindDate: new Date(t.clock.now()).toISOString(),
            lastUsedDate: null,
            deviceInfo: {
              deviceName: 'Pixel 8',
              os: 'Android 15',
              architecture: 'arm64',
              deviceType: 'phone',
            },
            licenseKey: { licenseKey: scriptKey.scriptKey, keyType: 'premium_24h' },
          },
          {
            id: expect.any(Number),
            hardwareId: 'hw-license',
            status: 'ACTIVE',
            firstBindDate: new Date(t.clock.now() - 1000).toISOString(),
            lastUsedDate: null,
            deviceInfo: null,
            licenseKey: { licenseKey: licenseKey.licenseKey, keyType: 'VIP' },
          },
        ]);
      });

      it('answers an empty list when no device is bound', async () => {
        expect((await list()).json()).toMatchObject({ bindings: [], count: 0 });
      });

      it('shows no device details when the stored ones are not a JSON object', async () => {
        const key = await insertTestScriptKey(t, { maxHardwareBindings: 3 });
        await insertScriptKeyBinding(t, key.id, 'hw-text', { deviceInfo: 'not json {' });
        await insertScriptKeyBinding(t, key.id, 'hw-array', { deviceInfo: '["laptop"]' });
        await insertScriptKeyBinding(t, key.id, 'hw-partial', { deviceInfo: '{"os":"Windows 11"}' });
        const byDevice = Object.fromEntries((await listBindings()).map((b) => [b.hardwareId, b.deviceInfo]));
        expect(byDevice).toEqual({ 'hw-text': null, 'hw-array': null, 'hw-partial': { os: 'Windows 11' } });
      });

      it('keeps the fields of a stored description that are fine when another one is not', async () => {
        const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
        await insertScriptKeyBinding(t, key.id, 'hw-odd', {
          deviceInfo: JSON.stringify({
            deviceName: 42,
            os: 'Windows 11',
            architecture: ' ',
            deviceType: 'x'.repeat(31),
          }),
        });
        const [binding] = await listBindings();
        expect(binding?.deviceInfo).toEqual({ os: 'Windows 11' });
      });

      it('answers null for the key of a binding that names none', async () => {
        await t.ctx.db
          .insertInto('hardware_bindings')
          .values({
            hardware_id: 'hw-orphan',
            status: 'ACTIVE',
            device_info: null,
            first_bind_date: t.clock.now(),
          })
          .execute();
        expect((await listBindings())[0]).toMatchObject({ hardwareId: 'hw-orphan', licenseKey: null });
      });

      it('shows when a device last used its key', async () => {
        const key = await insertTestScriptKey(t);
        const id = await insertScriptKeyBinding(t, key.id, 'hw-1');
        const lastUsed = t.clock.now() + 30_000;
        await t.ctx.db
          .updateTable('hardware_bindings')
          .set({ last_used_date: lastUsed })
          .where('id', '=', id)
          .execute();
        expect((await listBindings())[0]?.lastUsedDate).toBe(new Date(lastUsed).toISOString());
      });
    });

    describe('revoking', () => {
      it('revokes a script key binding, audits it and frees a device slot', async () => {
        const key = await insertTestScriptKey(t, { maxHardwareBindings: 2 });
        const id = await insertScriptKeyBinding(t, key.id, 'hw-1', { deviceInfo: { deviceName: 'Desk' } });
        await insertScriptKeyBinding(t, key.id, 'hw-2');
        const res = await revoke({ bindingId: id });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          success: true,
          binding: {
            id,
            hardwareId: 'hw-1',
            status: 'REVOKED',
            firstBindDate: new Date(t.clock.now()).toISOString(),
            lastUsedDate: null,
            deviceInfo: { deviceName: 'Desk' },
            licenseKey: { licenseKey: key.scriptKey, keyType: 'PREMIUM' },
          },
        });
        expect((await listBindings()).find((b) => b.id === id)?.status).toBe('REVOKED');
        const keys = (
          await t.app.inject({
            method: 'GET',
            url: '/api/admin/script-keys/list',
            headers: { cookie: t.cookie },
          })
        ).json().scriptKeys;
        expect(keys[0].activeBindings).toBe(1);
        const rows = await auditRows('binding_revoked');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: key.scriptKey, hardware_id: 'hw-1' });
        expect(JSON.parse(rows[0]!.details)).toEqual({
          bindingId: id,
          licenseKeyId: null,
          scriptKeyId: key.id,
        });
      });

      it("tells the loaders to drop a script key's cached bindings once the revoke is saved", async () => {
        const key = await insertTestScriptKey(t);
        const id = await insertScriptKeyBinding(t, key.id, 'hw-1');
        const seen: Promise<string | undefined>[] = [];
        onScriptKeyChanged(t.ctx, () => {
          seen.push(
            t.ctx.db
              .selectFrom('hardware_bindings')
              .select('status')
              .where('id', '=', id)
              .executeTakeFirst()
              .then((row) => row?.status),
          );
        });
        expect((await revoke({ bindingId: id })).statusCode).toBe(200);
        expect(await Promise.all(seen)).toEqual(['REVOKED']);
      });

      it('revokes a license key binding without announcing a script key change', async () => {
        const licenseKey = await createLicenseKey();
        const id = await licenseKeyBindingId(licenseKey.id, 'hw-1');
        const announced: string[] = [];
        onScriptKeyChanged(t.ctx, (scriptKey) => announced.push(scriptKey));
        const res = await revoke({ bindingId: id });
        expect(res.statusCode).toBe(200);
        expect(res.json().binding).toMatchObject({
          status: 'REVOKED',
          licenseKey: { licenseKey: licenseKey.licenseKey, keyType: 'VIP' },
        });
        expect(announced).toEqual([]);
        const rows = await auditRows('binding_revoked');
        expect(rows[0]).toMatchObject({ license_key: licenseKey.licenseKey, hardware_id: 'hw-1' });
      });

      it('answers 409 for a binding that is already revoked', async () => {
        const key = await insertTestScriptKey(t);
        const id = await insertScriptKeyBinding(t, key.id, 'hw-1');
        await revoke({ bindingId: id });
        const again = await revoke({ bindingId: id });
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: 'Hardware binding is already revoked' });
        expect(await auditRows('binding_revoked')).toHaveLength(1);
      });

      it('lets exactly one of two simultaneous revokes win', async () => {
        const key = await insertTestScriptKey(t);
        const id = await insertScriptKeyBinding(t, key.id, 'hw-1');
        const codes = (await Promise.all([revoke({ bindingId: id }), revoke({ bindingId: id })]))
          .map((r) => r.statusCode)
          .sort();
        expect(codes).toEqual([200, 409]);
        expect(await auditRows('binding_revoked')).toHaveLength(1);
      });

      it('answers 404 for a binding that does not exist', async () => {
        const res = await revoke({ bindingId: 999 });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Hardware binding not found' });
      });

      it.each([
        [{}, 'bindingId: bindingId must be a number'],
        [{ bindingId: 'abc' }, 'bindingId: bindingId must be a number'],
        [{ bindingId: 0 }, 'bindingId: bindingId must be positive'],
        [{ bindingId: 1.5 }, 'bindingId: bindingId must be a whole number'],
        [{ bindingId: 99999999999 }, 'bindingId: bindingId must be at most 2147483647'],
        [undefined, 'Request body must be a JSON object with bindingId'],
      ])('refuses %j, naming bindingId', async (payload, error) => {
        const res = await revoke(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(error);
      });

      it('refuses a body that is not JSON', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/license/revoke-binding',
          headers: { cookie: t.cookie, 'content-type': 'application/json' },
          payload: '{"bindingId": 1',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(/JSON/);
      });
    });
  });
}
