import { describe, expect, it } from 'vitest';
import type { ScriptKey } from '../../../common/script-keys.ts';
import { insertHardwareBinding, insertScriptKeyBinding, insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { onScriptKeyChanged } from '../licensing/script-key-events.ts';

const HOUR_MS = 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: script keys`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const create = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/create',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const createKey = async (payload: Record<string, unknown> = {}): Promise<ScriptKey> => {
      const res = await create(payload);
      expect(res.statusCode).toBe(201);
      return res.json().scriptKey;
    };
    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/script-keys/list', headers: { cookie: t.cookie } });
    const listKeys = async (): Promise<ScriptKey[]> => (await list()).json().scriptKeys;
    const toggle = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/toggle-status',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const remove = (payload: unknown) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/admin/script-keys/delete',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const createCode = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/create-redemption-key',
        headers: { cookie: t.cookie },
        payload: {},
      });
      return res.json().redemptionKey as { id: number };
    };
    const createLicenseKey = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'VIP' },
      });
      return res.json().licenseKey as { id: number };
    };
    const auditRows = (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute();
    /** The keys the loaders are told to drop, each with its is_active as read back when the news arrived. */
    const watchCacheEvents = () => {
      const events: Promise<{ scriptKey: string; isActive: number | undefined }>[] = [];
      onScriptKeyChanged(t.ctx, (scriptKey) => {
        events.push(
          t.ctx.db
            .selectFrom('script_keys')
            .select('is_active')
            .where('script_key', '=', scriptKey)
            .executeTakeFirst()
            .then((row) => ({ scriptKey, isActive: row?.is_active })),
        );
      });
      return () => Promise.all(events);
    };

    describe('creating', () => {
      it('creates an active PREMIUM key with a 256-bit value and the defaults', async () => {
        const res = await create({});
        expect(res.statusCode).toBe(201);
        const key: ScriptKey = res.json().scriptKey;
        expect(key.scriptKey).toMatch(/^SK-[0-9a-f]{64}$/);
        expect(key).toEqual({
          id: expect.any(Number),
          scriptKey: key.scriptKey,
          scriptType: 'PREMIUM',
          isActive: 1,
          usageCount: 0,
          lastUsed: null,
          createdAt: new Date(t.clock.now()).toISOString(),
          expiresAt: null,
          licenseKeyId: null,
          redemptionKeyId: null,
          notes: null,
          maxHardwareBindings: 1,
          activeBindings: 0,
          disabledReason: null,
          discordUserId: null,
        });
      });

      it('stores the type, switch, limit, expiry and trimmed notes the admin chose', async () => {
        const expiresAt = new Date(t.clock.now() + 72 * HOUR_MS).toISOString();
        const key = await createKey({
          scriptType: 'VIP',
          isActive: 0,
          maxHardwareBindings: 5,
          expiresAt,
          notes: '  reseller batch  ',
        });
        expect(key).toMatchObject({
          scriptType: 'VIP',
          isActive: 0,
          maxHardwareBindings: 5,
          expiresAt,
          notes: 'reseller batch',
        });
        expect((await createKey({ notes: '  ' })).notes).toBeNull();
      });

      it('gives a premium_24h key without an expiry 24 hours, and keeps an expiry the admin set', async () => {
        const dayKey = await createKey({ scriptType: 'premium_24h' });
        expect(dayKey.expiresAt).toBe(new Date(t.clock.now() + 24 * HOUR_MS).toISOString());
        const nullKey = await createKey({ scriptType: 'premium_24h', expiresAt: null });
        expect(nullKey.expiresAt).toBe(dayKey.expiresAt);
        const chosen = new Date(t.clock.now() + 2 * HOUR_MS).toISOString();
        expect((await createKey({ scriptType: 'premium_24h', expiresAt: chosen })).expiresAt).toBe(chosen);
        // Other types without an expiry never expire.
        expect((await createKey({ scriptType: 'VIP' })).expiresAt).toBeNull();
      });

      it('links a key to an existing license key and redemption code', async () => {
        const licenseKey = await createLicenseKey();
        const code = await createCode();
        const key = await createKey({ licenseKeyId: licenseKey.id, redemptionKeyId: code.id });
        expect(key).toMatchObject({ licenseKeyId: licenseKey.id, redemptionKeyId: code.id });
      });

      it('refuses a license key or redemption code that does not exist, writing nothing', async () => {
        const noLicense = await create({ licenseKeyId: 999 });
        expect(noLicense.statusCode).toBe(400);
        expect(noLicense.json()).toEqual({ error: 'licenseKeyId: no license key with that id' });
        const noCode = await create({ redemptionKeyId: 999 });
        expect(noCode.statusCode).toBe(400);
        expect(noCode.json()).toEqual({ error: 'redemptionKeyId: no redemption code with that id' });
        expect(await listKeys()).toEqual([]);
        expect(await auditRows('script_key_created')).toHaveLength(0);
      });

      it('answers 409 for a redemption code that already has a key', async () => {
        const code = await createCode();
        const first = await createKey({ redemptionKeyId: code.id });
        const second = await create({ redemptionKeyId: code.id });
        expect(second.statusCode).toBe(409);
        expect(second.json()).toEqual({ error: 'redemptionKeyId: that code already has a script key' });
        expect((await listKeys()).map((k) => k.id)).toEqual([first.id]);
      });

      it('lets exactly one of two simultaneous keys for one code through', async () => {
        const code = await createCode();
        const results = await Promise.all([
          create({ redemptionKeyId: code.id }),
          create({ redemptionKeyId: code.id }),
        ]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
        expect(await listKeys()).toHaveLength(1);
        expect(await auditRows('script_key_created')).toHaveLength(1);
      });

      it('refuses an expiry in the past or right now', async () => {
        for (const expiresAt of ['2020-01-01T00:00:00Z', new Date(t.clock.now()).toISOString()]) {
          const res = await create({ scriptType: 'premium_24h', expiresAt });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual({ error: 'expiresAt must be in the future' });
        }
        expect(await listKeys()).toEqual([]);
      });

      it('writes a script_key_created audit row naming the key', async () => {
        const key = await createKey({ scriptType: 'VIP' });
        const rows = await auditRows('script_key_created');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: key.scriptKey });
        expect(JSON.parse(rows[0]!.details)).toMatchObject({ id: key.id, scriptType: 'VIP', isActive: 1 });
      });

      it.each([
        [{ scriptType: 'GOLD' }, 'scriptType: scriptType must be FREE, PREMIUM, VIP or premium_24h'],
        [{ licenseKeyId: 'abc' }, 'licenseKeyId: licenseKeyId must be a number or null'],
        [{ licenseKeyId: 0 }, 'licenseKeyId: licenseKeyId must be positive'],
        [{ licenseKeyId: 1.5 }, 'licenseKeyId: licenseKeyId must be a whole number'],
        [{ licenseKeyId: 99999999999 }, 'licenseKeyId: licenseKeyId must be at most 2147483647'],
        [{ redemptionKeyId: -1 }, 'redemptionKeyId: redemptionKeyId must be positive'],
        [{ redemptionKeyId: 99999999999 }, 'redemptionKeyId: redemptionKeyId must be at most 2147483647'],
        [{ isActive: 2 }, 'isActive: isActive must be 0 or 1'],
        [{ isActive: true }, 'isActive: isActive must be 0 or 1'],
        [{ maxHardwareBindings: 11 }, 'maxHardwareBindings: maxHardwareBindings must be between 1 and 10'],
        [{ expiresAt: 'tomorrow' }, 'expiresAt: expiresAt must be an ISO date-time'],
        [['PREMIUM'], 'Request body must be a JSON object'],
      ])('refuses %j, naming the field', async (payload, error) => {
        const res = await create(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(error);
        expect(await listKeys()).toEqual([]);
      });

      it('refuses notes longer than 1000 characters', async () => {
        const res = await create({ notes: 'x'.repeat(1001) });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('notes: notes must be at most 1000 characters');
      });

      it('refuses a body that is not JSON', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/script-keys/create',
          headers: { cookie: t.cookie, 'content-type': 'application/json' },
          payload: '{"scriptType": ',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(/JSON/);
      });
    });

    describe('listing', () => {
      it('lists keys newest first with their count and the time of the answer', async () => {
        const first = await createKey();
        t.clock.advance(1000);
        const second = await createKey({ scriptType: 'FREE' });
        const res = await list();
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.scriptKeys.map((k: ScriptKey) => k.id)).toEqual([second.id, first.id]);
        expect(body.count).toBe(2);
        expect(body.timestamp).toBe(new Date(t.clock.now()).toISOString());
      });

      it('answers exactly the fields the screen reads (the response schemas strip the rest)', async () => {
        await createKey();
        const body = (await list()).json();
        expect(Object.keys(body).sort()).toEqual(['count', 'scriptKeys', 'timestamp']);
        expect(Object.keys(body.scriptKeys[0]).sort()).toEqual([
          'activeBindings',
          'createdAt',
          'disabledReason',
          'discordUserId',
          'expiresAt',
          'id',
          'isActive',
          'lastUsed',
          'licenseKeyId',
          'maxHardwareBindings',
          'notes',
          'redemptionKeyId',
          'scriptKey',
          'scriptType',
          'usageCount',
        ]);
      });

      it('shows the Discord user each key is linked to, and none for a key nobody linked', async () => {
        const linked = await createKey();
        const unlinked = await createKey();
        await t.ctx.db
          .insertInto('discord_links')
          .values({
            script_key_id: linked.id,
            discord_user_id: '2200000000000000001',
            guild_id: null,
            linked_at: t.clock.now(),
          })
          .execute();
        const keys = await listKeys();
        expect(keys.find((k) => k.id === linked.id)?.discordUserId).toBe('2200000000000000001');
        expect(keys.find((k) => k.id === unlinked.id)?.discordUserId).toBeNull();
        const toggled = await toggle({ keyId: linked.id });
        expect(toggled.json().scriptKey.discordUserId).toBe('2200000000000000001');
      });

      it('answers an empty list when there are no keys', async () => {
        expect((await list()).json()).toMatchObject({ scriptKeys: [], count: 0 });
      });

      it("counts only the key's own ACTIVE devices", async () => {
        const key = await createKey({ maxHardwareBindings: 5 });
        const other = await createKey();
        await insertScriptKeyBinding(t, key.id, 'hw-1');
        await insertScriptKeyBinding(t, key.id, 'hw-2');
        await insertScriptKeyBinding(t, key.id, 'hw-3', { status: 'REVOKED' });
        await insertScriptKeyBinding(t, other.id, 'hw-1', { status: 'REVOKED' });
        // A license key with the same id as the script key: its devices are not the script key's.
        await insertHardwareBinding(t, (await createLicenseKey()).id, 'hw-9');
        const keys = await listKeys();
        expect(keys.find((k) => k.id === key.id)?.activeBindings).toBe(2);
        expect(keys.find((k) => k.id === other.id)?.activeBindings).toBe(0);
      });

      it('shows usage as the loader records it', async () => {
        const key = await createKey();
        const lastUsed = t.clock.now() + 60_000;
        await t.ctx.db
          .updateTable('script_keys')
          .set({ usage_count: 7, last_used: lastUsed })
          .where('id', '=', key.id)
          .execute();
        expect((await listKeys())[0]).toMatchObject({
          usageCount: 7,
          lastUsed: new Date(lastUsed).toISOString(),
        });
      });
    });

    describe('toggling', () => {
      it('switches a key off and on again, saying which', async () => {
        const key = await createKey();
        const off = await toggle({ keyId: key.id });
        expect(off.statusCode).toBe(200);
        expect(off.json()).toEqual({
          message: 'Script key deactivated',
          scriptKey: { ...key, isActive: 0 },
        });
        expect((await listKeys())[0]?.isActive).toBe(0);
        const on = await toggle({ keyId: key.id });
        expect(on.json()).toMatchObject({ message: 'Script key activated', scriptKey: { isActive: 1 } });
        expect((await listKeys())[0]?.isActive).toBe(1);
      });

      it('audits each change with the new state', async () => {
        const key = await createKey();
        await toggle({ keyId: key.id });
        await toggle({ keyId: key.id });
        const rows = await auditRows('script_key_status_changed');
        expect(rows.map((r) => JSON.parse(r.details).isActive).sort()).toEqual([0, 1]);
        expect(rows.every((r) => r.license_key === key.scriptKey)).toBe(true);
      });

      it('tells the loaders to drop the key once the change is saved', async () => {
        const key = await createKey();
        const other = await createKey();
        const received = watchCacheEvents();
        expect((await toggle({ keyId: key.id })).statusCode).toBe(200);
        expect(await received()).toEqual([{ scriptKey: key.scriptKey, isActive: 0 }]);
        expect((await received()).map((e) => e.scriptKey)).not.toContain(other.scriptKey);
      });

      it('ends where it started after two simultaneous toggles', async () => {
        const key = await createKey();
        const results = await Promise.all([toggle({ keyId: key.id }), toggle({ keyId: key.id })]);
        expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
        expect(results.map((r) => r.json().message).sort()).toEqual([
          'Script key activated',
          'Script key deactivated',
        ]);
        expect((await listKeys())[0]?.isActive).toBe(1);
      });

      it('answers 404 for a key that does not exist, announcing nothing', async () => {
        const received = watchCacheEvents();
        const res = await toggle({ keyId: 999 });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Script key not found' });
        expect(await received()).toEqual([]);
        expect(await auditRows('script_key_status_changed')).toHaveLength(0);
      });

      it.each([
        [{}, 'keyId: keyId must be a number'],
        [{ keyId: '1' }, 'keyId: keyId must be a number'],
        [{ keyId: 0 }, 'keyId: keyId must be positive'],
        [{ keyId: 2.5 }, 'keyId: keyId must be a whole number'],
        [{ keyId: 99999999999 }, 'keyId: keyId must be at most 2147483647'],
        [undefined, 'Request body must be a JSON object with keyId'],
      ])('refuses %j, naming keyId', async (payload, error) => {
        const res = await toggle(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(error);
      });
    });

    describe('deleting', () => {
      it('deletes a key with its bindings and challenge nonces, and audits it', async () => {
        const key = await createKey({ maxHardwareBindings: 2 });
        const kept = await insertTestScriptKey(t);
        await insertScriptKeyBinding(t, key.id, 'hw-1');
        await insertScriptKeyBinding(t, kept.id, 'hw-1');
        await t.ctx.db
          .insertInto('challenge_nonces')
          .values({
            nonce: 'n-1',
            script_key_id: key.id,
            hardware_id: 'hw-1',
            expires_at: t.clock.now() + 60_000,
          })
          .execute();
        const res = await remove({ keyId: key.id });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, message: 'Script key deleted' });
        expect((await listKeys()).map((k) => k.id)).toEqual([kept.id]);
        const bindings = await t.ctx.db.selectFrom('hardware_bindings').select('script_key_id').execute();
        expect(bindings).toEqual([{ script_key_id: kept.id }]);
        expect(await t.ctx.db.selectFrom('challenge_nonces').selectAll().execute()).toEqual([]);
        const rows = await auditRows('script_key_deleted');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: key.scriptKey });
      });

      it('tells the loaders to drop the key once it is gone', async () => {
        const key = await createKey();
        const received = watchCacheEvents();
        expect((await remove({ keyId: key.id })).statusCode).toBe(200);
        expect(await received()).toEqual([{ scriptKey: key.scriptKey, isActive: undefined }]);
      });

      it('frees the redemption code the key was made from', async () => {
        const code = await createCode();
        const key = await createKey({ redemptionKeyId: code.id });
        await remove({ keyId: key.id });
        const codes = (
          await t.app.inject({
            method: 'GET',
            url: '/api/admin/redemption-keys',
            headers: { cookie: t.cookie },
          })
        ).json().redemptionKeys;
        expect(codes[0]).toMatchObject({ id: code.id, scriptKeyId: null });
      });

      it('answers 404 for a key that does not exist, or no longer does', async () => {
        const key = await createKey();
        await remove({ keyId: key.id });
        const res = await remove({ keyId: key.id });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Script key not found' });
        expect(await auditRows('script_key_deleted')).toHaveLength(1);
      });

      it('refuses a missing or malformed keyId, deleting nothing', async () => {
        const key = await createKey();
        for (const [payload, error] of [
          [undefined, 'Request body must be a JSON object with keyId'],
          [{ id: key.id }, 'keyId: keyId must be a number'],
          [{ keyId: -key.id }, 'keyId: keyId must be positive'],
          [{ keyId: 99999999999 }, 'keyId: keyId must be at most 2147483647'],
        ] as const) {
          const res = await remove(payload);
          expect(res.statusCode, JSON.stringify(payload)).toBe(400);
          expect(res.json().error).toBe(error);
        }
        expect(await listKeys()).toHaveLength(1);
      });
    });
  });
}
