import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import type { LoaderKeyResponse } from '../../../common/script-access.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { loadLoaderSigner } from './loader-signing.ts';
import { callLoader, insertTestScriptKey, savePremiumScript } from './script-access.fixtures.ts';

const SCRIPT = 'signed-premium.lua';

/** Whether `signature` (the header's value) is the server key's Ed25519 signature of `body`. */
function verifies(publicKey: string, body: Buffer, signature: unknown): boolean {
  expect(signature).toMatch(/^ed25519=[A-Za-z0-9+/]+={0,2}$/);
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, body, key, Buffer.from(String(signature).slice('ed25519='.length), 'base64'));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: signed loader answers`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const publicKey = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/script/loader-key' });
      expect(res.statusCode, res.body).toBe(200);
      const answer: LoaderKeyResponse = res.json();
      expect(answer).toMatchObject({ algorithm: 'Ed25519', header: 'X-Scanline-Signature' });
      expect(Buffer.from(answer.publicKey, 'base64')).toHaveLength(32);
      return answer.publicKey;
    };

    it('signs every Lua answer, served script, bootstrap and refusal alike, over its exact bytes', async () => {
      const key = await publicKey();
      await savePremiumScript(t, t.cookie, SCRIPT, 'return "premium"\n');
      const scriptKey = await insertTestScriptKey(t);
      const answers = [
        await callLoader(t, { script: SCRIPT, key: scriptKey.scriptKey, hwid: 'device-1' }),
        await callLoader(t, { script: SCRIPT, key: scriptKey.scriptKey, hwid: 'device-1' }),
        await callLoader(t, { script: SCRIPT, key: scriptKey.scriptKey }),
        await callLoader(t, { script: SCRIPT, key: 'SK-unknown', hwid: 'device-1' }),
        await callLoader(t, { script: FREE_SCRIPT_FILE }),
        await callLoader(t, {}),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        expect(verifies(key, res.rawPayload, res.headers['x-scanline-signature']), res.body).toBe(true);
      }
      // A changed byte no longer verifies.
      const served = answers[0] as (typeof answers)[number];
      const tampered = Buffer.from(served.rawPayload);
      tampered[tampered.length - 2] = 0x21;
      expect(verifies(key, tampered, served.headers['x-scanline-signature'])).toBe(false);
    });

    it('signs a script saved again with its new bytes', async () => {
      const key = await publicKey();
      await savePremiumScript(t, t.cookie, SCRIPT, 'return 1\n');
      const scriptKey = await insertTestScriptKey(t);
      const query = { script: SCRIPT, key: scriptKey.scriptKey, hwid: 'device-1' };
      const first = await callLoader(t, query);
      await savePremiumScript(t, t.cookie, SCRIPT, 'return 2\n');
      const second = await callLoader(t, query);
      expect(second.body).toContain('return 2');
      expect(verifies(key, second.rawPayload, second.headers['x-scanline-signature'])).toBe(true);
      expect(second.headers['x-scanline-signature']).not.toBe(first.headers['x-scanline-signature']);
    });

    it('keeps one key in the database, which every instance (and a restart) signs with', async () => {
      const key = await publicKey();
      const again = await loadLoaderSigner(t.ctx.db, t.clock.now());
      expect(again.publicKey).toBe(key);
      expect(await t.ctx.db.selectFrom('loader_signing_keys').select('id').execute()).toEqual([{ id: 1 }]);
    });
  });
}
