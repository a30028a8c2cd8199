import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import { loadConfig } from '../../config.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import { loaderStopChunk } from './loader-response.ts';
import { auditRows, callLoader, insertTestScriptKey, savePremiumScript } from './script-access.fixtures.ts';

const SCRIPT = 'preamble-premium.lua';
// Reads what the preamble told it back out through a global (SCANLINE itself is local to the chunk).
const READER =
  'seen = { SCANLINE.site, SCANLINE.keyId, SCANLINE.autoJoinMaxAgeS, SCANLINE.key, SCANLINE.hwid }\n';

/** Runs `source` in a real Lua VM: what it printed, what it raised, and the global `seen`. */
async function runLua(source: string) {
  const lua = await new LuaFactory().createEngine();
  const printed: string[] = [];
  let raised: string | undefined;
  try {
    lua.global.set('print', (...parts: unknown[]) => printed.push(parts.map(String).join(' ')));
    await lua.doString(source).catch((error: unknown) => {
      raised = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    });
    const seen = lua.global.get('seen') as unknown[] | undefined;
    return { printed, raised, seen };
  } finally {
    lua.global.close();
  }
}

describe('AUTO_JOIN_MAX_AGE_S', () => {
  it('defaults to 15 seconds, takes whole seconds of 1 or more', () => {
    expect(loadConfig({}).AUTO_JOIN_MAX_AGE_S).toBe(15);
    expect(loadConfig({ AUTO_JOIN_MAX_AGE_S: '30' }).AUTO_JOIN_MAX_AGE_S).toBe(30);
    for (const bad of ['0', '1.5', 'soon', '-3'])
      expect(() => loadConfig({ AUTO_JOIN_MAX_AGE_S: bad }), bad).toThrow();
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: the loader's preamble`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { AUTO_JOIN_MAX_AGE_S: '7' } });

    it("puts one line before a premium script: the site as reached and the key's number, never the key or the device", async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, READER);
      const key = await insertTestScriptKey(t);
      const hwid = 'PC "1" \\ α';
      const res = await callLoader(
        t,
        { script: SCRIPT, key: key.scriptKey, hwid },
        { host: 'scan.example:5000' },
      );
      expect(res.statusCode, res.body).toBe(200);
      const [first, ...rest] = res.body.split('\n');
      expect(first).toBe(
        `local SCANLINE = { site = "http://scan.example:5000", keyId = ${key.id}, autoJoinMaxAgeS = 7 }`,
      );
      // A served script, copied or dumped, gives away neither the key nor the device it was bound to.
      expect(res.body).not.toContain(key.scriptKey);
      expect(res.body).not.toContain('PC "1"');
      expect(res.body).not.toContain('PC \\"1\\"');
      // Line numbers shift by exactly one: the rest is the script byte for byte.
      expect(rest.join('\n')).toBe(READER);
      const run = await runLua(res.body);
      expect(run.raised).toBeUndefined();
      expect(run.seen).toEqual(['http://scan.example:5000', key.id, 7]);
    });

    it('puts it before a FREE script too, with no key even when one is given', async () => {
      const key = await insertTestScriptKey(t);
      const res = await callLoader(
        t,
        { script: FREE_SCRIPT_FILE, key: key.scriptKey },
        { host: '127.0.0.1:5000' },
      );
      expect(res.statusCode).toBe(200);
      expect(res.body.split('\n', 1)[0]).toBe(
        'local SCANLINE = { site = "http://127.0.0.1:5000", autoJoinMaxAgeS = 7 }',
      );
      expect(res.body).not.toContain(key.scriptKey);
    });

    it('leaves it out of the bootstrap, which passes the key on as it was', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, READER);
      const key = await insertTestScriptKey(t);
      const res = await callLoader(t, { script: SCRIPT, key: key.scriptKey });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('SCANLINE');
      expect(res.body).toContain(`key=${key.scriptKey}`);
    });
  });

  describe(`${dialect}: a loader refusal, by caller`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const reason = `[Scanline] ${ACCESS_TEXTS.inactiveKey}`;

    const switchedOffKey = async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, READER);
      return insertTestScriptKey(t, { isActive: 0 });
    };

    it('answers an executor 200 with Lua that prints the reason and stops with it, the status in a header', async () => {
      const key = await switchedOffKey();
      const res = await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'device-1' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-scanline-refusal']).toBe('403 key-disabled');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(loaderStopChunk(ACCESS_TEXTS.inactiveKey));
      const run = await runLua(res.body);
      expect(run.printed).toEqual([reason]);
      expect(run.raised).toBe(reason);
    });

    it('answers a caller whose Accept names JSON with the 4xx and {error}', async () => {
      const key = await switchedOffKey();
      for (const accept of ['application/json', 'text/plain;q=0.5, Application/JSON']) {
        const res = await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'd' }, { accept });
        expect(res.statusCode, accept).toBe(403);
        expect(res.headers['x-scanline-refusal']).toBe('403 key-disabled');
        expect(res.json()).toEqual({ error: ACCESS_TEXTS.inactiveKey });
      }
      const missing = await callLoader(t, { script: 'missing.lua' }, { accept: 'application/json' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-scanline-refusal']).toBe('404 script-not-found');
      const bad = await callLoader(t, {}, { accept: 'application/json' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'Bad loader request: script is required' });
    });

    it('answers a HEAD with the 4xx', async () => {
      const key = await switchedOffKey();
      const query = new URLSearchParams({ script: SCRIPT, key: key.scriptKey, hwid: 'd' });
      const res = await t.app.inject({ method: 'HEAD', url: `/api/script/loader?${query}` });
      expect(res.statusCode).toBe(403);
      expect(res.headers['x-scanline-refusal']).toBe('403 key-disabled');
      const unknown = await t.app.inject({
        method: 'HEAD',
        url: `/api/script/loader?script=${SCRIPT}&key=SK-nope&hwid=d`,
      });
      expect(unknown.statusCode).toBe(403);
      expect(unknown.headers['x-scanline-refusal']).toBe('403 key-unknown');
    });

    it('names the device limit and a missing key in the header', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, READER);
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      expect((await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'a' })).statusCode).toBe(200);
      const limited = await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'b' });
      expect(limited.headers['x-scanline-refusal']).toBe('403 device-limit');
      expect(limited.statusCode).toBe(200);
      // Still audited as a refused binding.
      await t.app.pendingWrites.flush();
      const attempts = await auditRows(t, 'binding_attempt');
      expect(attempts.map((a) => [a.hardware_id, a.success])).toEqual([
        ['a', 1],
        ['b', 0],
      ]);
      const keyless = await callLoader(t, { script: SCRIPT });
      expect(keyless.statusCode).toBe(200);
      expect(keyless.headers['x-scanline-refusal']).toBe('401 key-required');
    });
  });
}
