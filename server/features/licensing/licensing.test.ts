import { describe, expect, it } from 'vitest';
import type { LicenseKey } from '../../../common/licensing.ts';
import { insertHardwareBinding } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { LICENSE_KEY_PATTERN } from './license-key.ts';

const HOUR_MS = 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: license keys`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const post = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload,
      });
    const createKey = async (payload: Record<string, unknown> = {}): Promise<LicenseKey> => {
      const res = await post({ keyType: 'PREMIUM', ...payload });
      expect(res.statusCode).toBe(201);
      return res.json().licenseKey;
    };
    const list = (query = '') =>
      t.app.inject({ method: 'GET', url: `/api/admin/license-keys${query}`, headers: { cookie: t.cookie } });
    const revoke = (id: number | string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/license-keys/${id}/revoke`,
        headers: { cookie: t.cookie },
      });
    const remove = (id: number | string) =>
      t.app.inject({ method: 'DELETE', url: `/api/admin/license-keys/${id}`, headers: { cookie: t.cookie } });
    const auditRows = (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute();

    describe('creating', () => {
      it('creates an ACTIVE key in the SCAN-XXXXX-XXXXX-XXXXX-XXXXX format with one binding by default', async () => {
        const res = await post({ keyType: 'VIP' });
        expect(res.statusCode).toBe(201);
        const key: LicenseKey = res.json().licenseKey;
        expect(key.licenseKey).toMatch(LICENSE_KEY_PATTERN);
        expect(key.licenseKey).toMatch(/^SCAN-[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
        expect(key.licenseKey).not.toMatch(/[01IO]/);
        expect(key).toMatchObject({
          keyType: 'VIP',
          status: 'ACTIVE',
          maxBindings: 1,
          activeBindings: 0,
          usageCount: 0,
          lastUsed: null,
          expiresAt: null,
          revokedAt: null,
          notes: null,
          createdAt: new Date(t.clock.now()).toISOString(),
        });
        expect(key.id).toBeGreaterThan(0);
      });

      it('stores the expiry, binding limit and trimmed notes the admin chose', async () => {
        const expiresAt = new Date(t.clock.now() + 48 * HOUR_MS).toISOString();
        const key = await createKey({ keyType: 'FREE', maxBindings: 10, expiresAt, notes: '  for Alice  ' });
        expect(key).toMatchObject({ keyType: 'FREE', maxBindings: 10, expiresAt, notes: 'for Alice' });
      });

      it('accepts an expiry with a time-zone offset', async () => {
        const key = await createKey({ expiresAt: '2026-11-23T12:00:00+02:00' });
        expect(key.expiresAt).toBe('2026-11-23T10:00:00.000Z');
      });

      it('gives every key a different code', async () => {
        const codes = new Set<string>();
        for (let i = 0; i < 20; i++) codes.add((await createKey()).licenseKey);
        expect(codes.size).toBe(20);
      });

      it('writes a license_key_created audit row', async () => {
        const key = await createKey({ keyType: 'VIP' });
        const rows = await auditRows('license_key_created');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: key.licenseKey });
        expect(JSON.parse(rows[0]!.details)).toMatchObject({ id: key.id, keyType: 'VIP' });
      });

      it('refuses more than 10 bindings, naming the field', async () => {
        const res = await post({ keyType: 'PREMIUM', maxBindings: 11 });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('maxBindings must be between 1 and 10');
      });

      it('refuses 0 bindings and fractional bindings', async () => {
        expect((await post({ keyType: 'PREMIUM', maxBindings: 0 })).json().error).toContain('maxBindings');
        const fraction = await post({ keyType: 'PREMIUM', maxBindings: 1.5 });
        expect(fraction.statusCode).toBe(400);
        expect(fraction.json().error).toContain('maxBindings must be a whole number');
      });

      it('refuses an unknown key type', async () => {
        const res = await post({ keyType: 'GOLD' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('keyType must be FREE, PREMIUM or VIP');
      });

      it('refuses a body without a key type', async () => {
        const res = await post({ maxBindings: 2 });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('keyType');
      });

      it('refuses an expiry in the past or right now', async () => {
        const past = await post({ keyType: 'PREMIUM', expiresAt: '2020-01-01T00:00:00Z' });
        expect(past.statusCode).toBe(400);
        expect(past.json()).toEqual({ error: 'expiresAt must be in the future' });
        const now = await post({ keyType: 'PREMIUM', expiresAt: new Date(t.clock.now()).toISOString() });
        expect(now.json()).toEqual({ error: 'expiresAt must be in the future' });
        expect((await list()).json().count).toBe(0);
      });

      it('refuses an expiry that is not an ISO date-time', async () => {
        const res = await post({ keyType: 'PREMIUM', expiresAt: 'next tuesday' });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('expiresAt must be an ISO date-time');
      });

      it('refuses notes longer than 1000 characters', async () => {
        const res = await post({ keyType: 'PREMIUM', notes: 'x'.repeat(1001) });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('notes must be at most 1000 characters');
      });

      it('refuses a body that is not JSON', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/license-keys',
          headers: { cookie: t.cookie, 'content-type': 'application/json' },
          payload: '{keyType: PREMIUM}',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(/JSON/);
      });
    });

    describe('listing', () => {
      it('lists keys newest first with their count and the time of the answer', async () => {
        const first = await createKey();
        t.clock.advance(1000);
        const second = await createKey();
        const res = await list();
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.licenseKeys.map((k: LicenseKey) => k.id)).toEqual([second.id, first.id]);
        expect(body.count).toBe(2);
        expect(body.timestamp).toBe(new Date(t.clock.now()).toISOString());
      });

      it('answers an empty list when there are no keys', async () => {
        expect((await list()).json()).toMatchObject({ licenseKeys: [], count: 0 });
      });

      it('counts only the ACTIVE devices bound to each key', async () => {
        const key = await createKey({ maxBindings: 3 });
        const other = await createKey();
        await insertHardwareBinding(t, key.id, 'hw-1');
        await insertHardwareBinding(t, key.id, 'hw-2');
        await insertHardwareBinding(t, key.id, 'hw-3', 'REVOKED');
        const keys: LicenseKey[] = (await list()).json().licenseKeys;
        expect(keys.find((k) => k.id === key.id)?.activeBindings).toBe(2);
        expect(keys.find((k) => k.id === other.id)?.activeBindings).toBe(0);
      });

      it('searches key and notes case-insensitively', async () => {
        const alice = await createKey({ notes: 'Sold to Alice' });
        const bob = await createKey({ notes: 'Sold to Bob' });
        await createKey();
        const byNote: LicenseKey[] = (await list('?search=aLiCe')).json().licenseKeys;
        expect(byNote.map((k) => k.id)).toEqual([alice.id]);
        const byKey: LicenseKey[] = (
          await list(`?search=${bob.licenseKey.slice(5, 11).toLowerCase()}`)
        ).json().licenseKeys;
        expect(byKey.map((k) => k.id)).toEqual([bob.id]);
        expect((await list('?search=sold')).json().count).toBe(2);
      });

      it('takes % and _ in a search literally', async () => {
        const discounted = await createKey({ notes: '50% off' });
        await createKey({ notes: '50 off' });
        const keys: LicenseKey[] = (await list('?search=0%25')).json().licenseKeys;
        expect(keys.map((k) => k.id)).toEqual([discounted.id]);
        expect((await list('?search=_')).json().count).toBe(0);
      });

      it('filters by derived status: ACTIVE, EXPIRED, REVOKED or all', async () => {
        const active = await createKey();
        const expiring = await createKey({ expiresAt: new Date(t.clock.now() + HOUR_MS).toISOString() });
        const revoked = await createKey();
        expect((await revoke(revoked.id)).statusCode).toBe(200);
        t.clock.advance(HOUR_MS);

        const ids = async (status: string) =>
          ((await list(`?status=${status}`)).json().licenseKeys as LicenseKey[]).map((k) => k.id);
        expect(await ids('ACTIVE')).toEqual([active.id]);
        expect(await ids('EXPIRED')).toEqual([expiring.id]);
        expect(await ids('REVOKED')).toEqual([revoked.id]);
        expect((await ids('all')).sort()).toEqual([active.id, expiring.id, revoked.id].sort());
        const expired = ((await list()).json().licenseKeys as LicenseKey[]).find((k) => k.id === expiring.id);
        expect(expired?.status).toBe('EXPIRED');
      });

      it('refuses an unknown status filter', async () => {
        const res = await list('?status=bogus');
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('status must be ACTIVE, EXPIRED, REVOKED or all');
      });
    });

    describe('revoking', () => {
      it('revokes a key and says when', async () => {
        const key = await createKey();
        t.clock.advance(5000);
        const res = await revoke(key.id);
        expect(res.statusCode).toBe(200);
        expect(res.json().licenseKey).toMatchObject({
          id: key.id,
          status: 'REVOKED',
          revokedAt: new Date(t.clock.now()).toISOString(),
        });
        const rows = await auditRows('license_key_revoked');
        expect(rows).toHaveLength(1);
        expect(rows[0]?.license_key).toBe(key.licenseKey);
      });

      it('answers 409 for a key that is already revoked', async () => {
        const key = await createKey();
        await revoke(key.id);
        const again = await revoke(key.id);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: 'License key is already revoked' });
        expect(await auditRows('license_key_revoked')).toHaveLength(1);
      });

      it('lets exactly one of two simultaneous revokes win', async () => {
        const key = await createKey();
        const codes = (await Promise.all([revoke(key.id), revoke(key.id)])).map((r) => r.statusCode).sort();
        expect(codes).toEqual([200, 409]);
      });

      it('answers 404 for a key that does not exist', async () => {
        const res = await revoke(999);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'License key not found' });
      });

      it('refuses an id that is not a positive whole number', async () => {
        for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
          const res = await revoke(id);
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toContain('id must be a positive whole number');
        }
      });
    });

    describe('deleting', () => {
      it('deletes a key with its bindings and audits it', async () => {
        const key = await createKey();
        const kept = await createKey();
        await insertHardwareBinding(t, key.id, 'hw-1');
        const res = await remove(key.id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true });
        expect(((await list()).json().licenseKeys as LicenseKey[]).map((k) => k.id)).toEqual([kept.id]);
        const bindings = await t.ctx.db.selectFrom('hardware_bindings').selectAll().execute();
        expect(bindings).toHaveLength(0);
        const rows = await auditRows('license_key_deleted');
        expect(rows).toHaveLength(1);
        expect(rows[0]?.license_key).toBe(key.licenseKey);
      });

      it('answers 404 for a key that does not exist, or no longer does', async () => {
        const key = await createKey();
        await remove(key.id);
        const res = await remove(key.id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'License key not found' });
        expect(await auditRows('license_key_deleted')).toHaveLength(1);
      });

      it('refuses an id that is not a number', async () => {
        const res = await remove('abc');
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toContain('id must be a positive whole number');
      });
    });
  });
}
