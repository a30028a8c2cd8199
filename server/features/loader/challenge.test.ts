import { describe, expect, it } from 'vitest';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { CHALLENGE_TTL_MS, type ChallengeResponse } from '../../../common/script-access.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import { loaderStopChunk } from './loader-response.ts';
import {
  auditRows,
  callLoader,
  challengeSignature,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
  scriptOf,
} from './script-access.fixtures.ts';

const SCRIPT = 'premium.lua';
const CONTENT = 'return "premium"\n';
const HWID = 'device-1';

for (const dialect of DIALECTS) {
  describe(`${dialect}: challenge mode`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const challenge = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/script/challenge', payload: payload as object });
    const issue = async (key: string, hwid = HWID): Promise<ChallengeResponse> => {
      const res = await challenge({ key, hwid });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const loadSigned = (key: string, nonce: string, sig: string, hwid = HWID) =>
      callLoader(t, { script: SCRIPT, key, hwid, nonce, sig });
    const sign = (key: string, nonce: string, hwid = HWID) => challengeSignature(key, nonce, hwid, SCRIPT);
    const expectRefused = (res: Awaited<ReturnType<typeof callLoader>>, message: string) => {
      expect(loaderStatus(res)).toBe(403);
      expect(res.body).toBe(loaderStopChunk(message));
      expect(findLuaSyntaxError(res.body)).toBeNull();
    };

    it('issues a single-use nonce that expires in 60 seconds, and audits it', async () => {
      const { id, scriptKey } = await insertTestScriptKey(t);
      const answer = await issue(scriptKey);
      expect(answer).toEqual({
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
        expiresAt: new Date(t.clock.now() + CHALLENGE_TTL_MS).toISOString(),
        expiresIn: 60,
      });
      const row = await t.ctx.db.selectFrom('challenge_nonces').selectAll().executeTakeFirstOrThrow();
      expect(row).toEqual({
        nonce: answer.nonce,
        script_key_id: id,
        hardware_id: HWID,
        expires_at: t.clock.now() + CHALLENGE_TTL_MS,
        used_at: null,
      });
      expect((await issue(scriptKey)).nonce).not.toBe(answer.nonce);
      await t.app.pendingWrites.flush();
      const [issued] = await auditRows(t, 'challenge_issued');
      expect(issued).toMatchObject({
        success: 1,
        license_key: scriptKey,
        hardware_id: HWID,
        details: { scriptKeyId: id, nonce: answer.nonce },
      });
    });

    it('refuses a challenge to a key that could not load a premium script, with 403 JSON', async () => {
      const off = await insertTestScriptKey(t, { isActive: 0 });
      const expired = await insertTestScriptKey(t, { expiresAt: t.clock.now() });
      const free = await insertTestScriptKey(t, { scriptType: 'FREE' });
      const cases: [string, string][] = [
        ['SK-unknown', ACCESS_TEXTS.unknownKey],
        [off.scriptKey, ACCESS_TEXTS.inactiveKey],
        [expired.scriptKey, ACCESS_TEXTS.expiredKey],
        [free.scriptKey, ACCESS_TEXTS.freeKey],
      ];
      for (const [key, error] of cases) {
        const res = await challenge({ key, hwid: HWID });
        expect(loaderStatus(res)).toBe(403);
        expect(res.json()).toEqual({ error });
      }
      expect(await t.ctx.db.selectFrom('challenge_nonces').selectAll().execute()).toEqual([]);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ hwid: HWID }, 'key is required'],
        [{ key: 'SK-x' }, 'hwid is required'],
        [{ key: '', hwid: HWID }, 'key must not be empty'],
        [{ key: 'SK-x', hwid: 'x'.repeat(201) }, 'hwid must be at most 200 characters'],
      ];
      for (const [payload, error] of cases) {
        const res = await challenge(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error).toContain(error);
      }
    });

    it('serves the script to a correctly signed call, once: the same URL again is refused', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const { id, scriptKey } = await insertTestScriptKey(t);
      const { nonce } = await issue(scriptKey);
      const sig = sign(scriptKey, nonce);
      const first = await loadSigned(scriptKey, nonce, sig);
      expect(first.statusCode, first.body).toBe(200);
      expect(scriptOf(first)).toBe(CONTENT);
      // Upper-case hex is the same signature.
      expectRefused(await loadSigned(scriptKey, nonce, sig.toUpperCase()), ACCESS_TEXTS.nonceRefused);

      await t.app.pendingWrites.flush();
      const hmac = await auditRows(t, 'hmac_verification');
      expect(hmac.map((r) => r.success)).toEqual([1, 1]);
      expect(hmac[0]).toMatchObject({
        license_key: scriptKey,
        hardware_id: HWID,
        details: { scriptKeyId: id, script: SCRIPT, nonce },
      });
      const verified = await auditRows(t, 'challenge_verified');
      expect(verified.map((r) => r.success)).toEqual([1, 0]);
      const row = await t.ctx.db.selectFrom('challenge_nonces').selectAll().executeTakeFirstOrThrow();
      expect(row.used_at).toBe(t.clock.now());
    });

    it('refuses a nonce that expired 60 seconds after it was issued', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const { scriptKey } = await insertTestScriptKey(t);
      const { nonce } = await issue(scriptKey);
      t.clock.advance(61_000);
      expectRefused(await loadSigned(scriptKey, nonce, sign(scriptKey, nonce)), ACCESS_TEXTS.nonceRefused);
    });

    it('refuses a bad signature, audits the failed check and uses the nonce up', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const { scriptKey } = await insertTestScriptKey(t);
      const other = await insertTestScriptKey(t);
      const wrongSignatures = [
        (nonce: string) => sign(other.scriptKey, nonce), // signed with another key
        (nonce: string) => sign(scriptKey, nonce, 'device-2'), // over another device
        (nonce: string) => challengeSignature(scriptKey, nonce, HWID, 'other.lua'), // for another script
        () => '0'.repeat(64),
      ];
      for (const wrong of wrongSignatures) {
        const { nonce } = await issue(scriptKey);
        expectRefused(await loadSigned(scriptKey, nonce, wrong(nonce)), ACCESS_TEXTS.badSignature);
        // A nonce is single-use whatever was signed: the right signature after a wrong one is refused.
        expectRefused(await loadSigned(scriptKey, nonce, sign(scriptKey, nonce)), ACCESS_TEXTS.nonceRefused);
      }
      await t.app.pendingWrites.flush();
      const checks = await auditRows(t, 'hmac_verification');
      expect(checks.map((r) => r.success)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
      expect(checks[0]).toMatchObject({ license_key: scriptKey, hardware_id: HWID, ip_address: '127.0.0.1' });
      expect((await auditRows(t, 'challenge_verified')).map((r) => r.success)).toEqual([0, 0, 0, 0]);
      const nonces = await t.ctx.db.selectFrom('challenge_nonces').select('used_at').execute();
      expect(nonces.map((n) => Number(n.used_at))).toEqual([1, 2, 3, 4].map(() => t.clock.now()));
    });

    it('refuses a nonce issued to another device or key, and one the server never issued', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const { scriptKey } = await insertTestScriptKey(t, { maxHardwareBindings: 2 });
      const other = await insertTestScriptKey(t);
      const forDevice2 = (await issue(scriptKey, 'device-2')).nonce;
      const forOtherKey = (await issue(other.scriptKey)).nonce;
      const invented = 'f'.repeat(32);
      for (const nonce of [forDevice2, forOtherKey, invented]) {
        expectRefused(await loadSigned(scriptKey, nonce, sign(scriptKey, nonce)), ACCESS_TEXTS.nonceRefused);
      }
    });

    it('still refuses a revoked device that signs correctly', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const { id, scriptKey } = await insertTestScriptKey(t);
      expect((await callLoader(t, { script: SCRIPT, key: scriptKey, hwid: HWID })).statusCode).toBe(200);
      const binding = await t.ctx.db
        .selectFrom('hardware_bindings')
        .select('id')
        .where('script_key_id', '=', id)
        .executeTakeFirstOrThrow();
      const revoked = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license/revoke-binding',
        headers: { cookie: t.cookie },
        payload: { bindingId: binding.id },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const { nonce } = await issue(scriptKey);
      expectRefused(await loadSigned(scriptKey, nonce, sign(scriptKey, nonce)), ACCESS_TEXTS.revokedDevice);
    });
  });
}
