import { describe, expect, it, vi } from 'vitest';
import { REDEMPTION_CODE_PATTERN, type RedemptionKey } from '../../../common/redemption.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

// Codes a test wants drawn next (to force a clash); the real generator once they run out.
const drawnCodes = vi.hoisted(() => [] as string[]);
vi.mock('./redemption-code.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./redemption-code.ts')>();
  return { generateRedemptionCode: () => drawnCodes.shift() ?? actual.generateRedemptionCode() };
});

const HOUR_MS = 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: redemption codes`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const post = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/create-redemption-key',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const createCode = async (payload: Record<string, unknown> = {}): Promise<RedemptionKey> => {
      const res = await post(payload);
      expect(res.statusCode).toBe(201);
      return res.json().redemptionKey;
    };
    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/redemption-keys', headers: { cookie: t.cookie } });
    const listCodes = async (): Promise<RedemptionKey[]> => (await list()).json().redemptionKeys;
    const remove = (id: number | string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/redemption-keys/${id}`,
        headers: { cookie: t.cookie },
      });
    const createScriptKey = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/create',
        headers: { cookie: t.cookie },
        payload,
      });
      expect(res.statusCode).toBe(201);
      return res.json().scriptKey as { id: number; redemptionKeyId: number | null };
    };
    const auditRows = (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute();

    describe('creating', () => {
      it('creates an available PREMIUM code in the SCANLINE-XXXX-XXXX-XXXX-XXXX format with the defaults', async () => {
        const res = await post({});
        expect(res.statusCode).toBe(201);
        const code: RedemptionKey = res.json().redemptionKey;
        expect(code.redemptionCode).toMatch(REDEMPTION_CODE_PATTERN);
        expect(code).toEqual({
          id: expect.any(Number),
          redemptionCode: code.redemptionCode,
          keyType: 'PREMIUM',
          isRedeemed: 0,
          redeemedAt: null,
          expiresAt: null,
          createdAt: new Date(t.clock.now()).toISOString(),
          maxHardwareBindings: 1,
          validityDuration: 24,
          notes: null,
          scriptKeyId: null,
        });
      });

      it('stores the type, limits, expiry and trimmed notes the admin chose', async () => {
        const expiresAt = new Date(t.clock.now() + 48 * HOUR_MS).toISOString();
        const code = await createCode({
          keyType: 'VIP',
          maxHardwareBindings: 10,
          validityDuration: 720,
          expiresAt,
          notes: '  for the Discord giveaway  ',
        });
        expect(code).toMatchObject({
          keyType: 'VIP',
          maxHardwareBindings: 10,
          validityDuration: 720,
          expiresAt,
          notes: 'for the Discord giveaway',
        });
        expect(await listCodes()).toEqual([code]);
      });

      it('takes the lowest limits, an expiry with an offset, and blank notes as none', async () => {
        const code = await createCode({
          keyType: 'FREE',
          maxHardwareBindings: 1,
          validityDuration: 1,
          expiresAt: '2026-11-23T12:00:00+02:00',
          notes: '   ',
        });
        expect(code).toMatchObject({
          keyType: 'FREE',
          validityDuration: 1,
          expiresAt: '2026-11-23T10:00:00.000Z',
          notes: null,
        });
        expect((await createCode({ expiresAt: null, notes: null })).expiresAt).toBeNull();
      });

      it('gives every code a different value', async () => {
        const codes = new Set<string>();
        for (let i = 0; i < 20; i++) codes.add((await createCode()).redemptionCode);
        expect(codes.size).toBe(20);
      });

      it('draws again when the drawn code is taken already', async () => {
        const first = await createCode();
        drawnCodes.push(first.redemptionCode, 'SCANLINE-AAAA-BBBB-CCCC-DDDD');
        const second = await createCode({ keyType: 'VIP' });
        expect(second.redemptionCode).toBe('SCANLINE-AAAA-BBBB-CCCC-DDDD');
        expect((await listCodes()).map((c) => c.redemptionCode).sort()).toEqual(
          [first.redemptionCode, second.redemptionCode].sort(),
        );
        expect(await auditRows('redemption_code_created')).toHaveLength(2);
      });

      it('writes a redemption_code_created audit row naming the code', async () => {
        const code = await createCode({ keyType: 'VIP', maxHardwareBindings: 3 });
        const rows = await auditRows('redemption_code_created');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: code.redemptionCode });
        expect(JSON.parse(rows[0]!.details)).toMatchObject({
          id: code.id,
          keyType: 'VIP',
          maxHardwareBindings: 3,
          validityDuration: 24,
        });
      });

      it('refuses an expiry in the past or right now, writing nothing', async () => {
        for (const expiresAt of ['2020-01-01T00:00:00Z', new Date(t.clock.now()).toISOString()]) {
          const res = await post({ expiresAt });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual({ error: 'expiresAt must be in the future' });
        }
        expect(await listCodes()).toEqual([]);
        expect(await auditRows('redemption_code_created')).toHaveLength(0);
      });

      it.each([
        [{ keyType: 'GOLD' }, 'keyType: keyType must be FREE, PREMIUM or VIP'],
        [{ maxHardwareBindings: 0 }, 'maxHardwareBindings: maxHardwareBindings must be between 1 and 10'],
        [{ maxHardwareBindings: 11 }, 'maxHardwareBindings: maxHardwareBindings must be between 1 and 10'],
        [{ maxHardwareBindings: 1.5 }, 'maxHardwareBindings: maxHardwareBindings must be a whole number'],
        [{ maxHardwareBindings: '3' }, 'maxHardwareBindings: maxHardwareBindings must be a number'],
        [{ validityDuration: 0 }, 'validityDuration: validityDuration must be between 1 and 720 hours'],
        [{ validityDuration: 721 }, 'validityDuration: validityDuration must be between 1 and 720 hours'],
        [{ validityDuration: null }, 'validityDuration: validityDuration must be a number of hours'],
        [{ expiresAt: 'next tuesday' }, 'expiresAt: expiresAt must be an ISO date-time'],
        [[], 'Request body must be a JSON object'],
      ])('refuses %j, naming the field', async (payload, error) => {
        const res = await post(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(error);
        expect(await listCodes()).toEqual([]);
      });

      it('refuses notes longer than 1000 characters', async () => {
        const res = await post({ notes: 'x'.repeat(1001) });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('notes: notes must be at most 1000 characters');
      });

      it('refuses a body that is not JSON, or no body at all', async () => {
        const broken = await t.app.inject({
          method: 'POST',
          url: '/api/admin/create-redemption-key',
          headers: { cookie: t.cookie, 'content-type': 'application/json' },
          payload: '{"keyType": "VIP",',
        });
        expect(broken.statusCode).toBe(400);
        expect(broken.json().error).toMatch(/JSON/);
        const empty = await t.app.inject({
          method: 'POST',
          url: '/api/admin/create-redemption-key',
          headers: { cookie: t.cookie },
        });
        expect(empty.statusCode).toBe(400);
        expect(empty.json().error).toBe('Request body must be a JSON object');
      });
    });

    describe('listing', () => {
      it('lists codes newest first with their count, the time of the answer and no-cache headers', async () => {
        const first = await createCode();
        t.clock.advance(1000);
        const second = await createCode({ keyType: 'FREE' });
        const res = await list();
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        const body = res.json();
        expect(body.redemptionKeys.map((c: RedemptionKey) => c.id)).toEqual([second.id, first.id]);
        expect(body.count).toBe(2);
        expect(body.timestamp).toBe(new Date(t.clock.now()).toISOString());
      });

      it('answers exactly the fields the screen reads (the response schemas strip the rest)', async () => {
        await createCode();
        const body = (await list()).json();
        expect(Object.keys(body).sort()).toEqual(['count', 'redemptionKeys', 'timestamp']);
        expect(Object.keys(body.redemptionKeys[0]).sort()).toEqual([
          'createdAt',
          'expiresAt',
          'id',
          'isRedeemed',
          'keyType',
          'maxHardwareBindings',
          'notes',
          'redeemedAt',
          'redemptionCode',
          'scriptKeyId',
          'validityDuration',
        ]);
      });

      it('answers an empty list when there are no codes', async () => {
        expect((await list()).json()).toMatchObject({ redemptionKeys: [], count: 0 });
      });

      it('names the script key a code became once one is linked to it', async () => {
        const linked = await createCode();
        const other = await createCode();
        const scriptKey = await createScriptKey({ redemptionKeyId: linked.id });
        const codes = await listCodes();
        expect(codes.find((c) => c.id === linked.id)?.scriptKeyId).toBe(scriptKey.id);
        expect(codes.find((c) => c.id === other.id)?.scriptKeyId).toBeNull();
      });

      it('shows when a code was redeemed', async () => {
        const code = await createCode();
        const redeemedAt = t.clock.now() + 5000;
        await t.ctx.db
          .updateTable('redemption_keys')
          .set({ is_redeemed: 1, redeemed_at: redeemedAt })
          .where('id', '=', code.id)
          .execute();
        expect((await listCodes())[0]).toMatchObject({
          isRedeemed: 1,
          redeemedAt: new Date(redeemedAt).toISOString(),
        });
      });
    });

    describe('deleting', () => {
      it('deletes a code and audits it', async () => {
        const code = await createCode();
        const kept = await createCode();
        const res = await remove(code.id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true });
        expect((await listCodes()).map((c) => c.id)).toEqual([kept.id]);
        const rows = await auditRows('redemption_code_deleted');
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ success: 1, license_key: code.redemptionCode });
      });

      it('deletes a redeemed code but keeps the script key it became, unlinked', async () => {
        const code = await createCode();
        const scriptKey = await createScriptKey({ redemptionKeyId: code.id });
        await t.ctx.db
          .updateTable('redemption_keys')
          .set({ is_redeemed: 1 })
          .where('id', '=', code.id)
          .execute();
        expect((await remove(code.id)).statusCode).toBe(200);
        const keys = (
          await t.app.inject({
            method: 'GET',
            url: '/api/admin/script-keys/list',
            headers: { cookie: t.cookie },
          })
        ).json().scriptKeys;
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatchObject({ id: scriptKey.id, redemptionKeyId: null, isActive: 1 });
      });

      it('answers 404 for a code that does not exist, or no longer does', async () => {
        const code = await createCode();
        await remove(code.id);
        const res = await remove(code.id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Redemption code not found' });
        expect((await remove(999)).statusCode).toBe(404);
        expect(await auditRows('redemption_code_deleted')).toHaveLength(1);
      });

      it('refuses an id that is not a positive whole number', async () => {
        for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
          const res = await remove(id);
          expect(res.statusCode, id).toBe(400);
          expect(res.json().error).toContain('id must be a positive whole number');
        }
      });
    });
  });
}
