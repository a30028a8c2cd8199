import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import { insertTestScriptKey, savePremiumScript, scriptKeyBindings } from './script-access.fixtures.ts';

const SCRIPT = 'vm-premium.lua';
// What "the premium script ran" looks like from outside: a global it sets, and a line it prints.
const PREMIUM_SOURCE = 'premium_runs = (premium_runs or 0) + 1\nprint("premium scanner running")\n';

/** What one executor run left behind. */
interface ExecutorRun {
  printed: string[];
  premiumRuns: number;
  /** What the snippet raised (a refusal stops the snippet with its reason), or undefined. */
  raised?: string;
  /** Every URL the executor fetched, in order. */
  fetched: string[];
}

/**
 * Runs `snippet` as an executor would: a real Lua VM (Lua 5.4 through wasmoon) with the executor's
 * globals stubbed. game:HttpGet makes a real HTTP GET to the app over loopback (awaited from Lua),
 * loadstring is Lua 5.4's load, print is captured, gethwid answers `device` (or is absent, so the
 * bootstrap falls back to RbxAnalyticsService's client id).
 */
async function runInExecutor(
  snippet: string,
  device: { gethwid?: string; clientId?: string; httpGetRaisesOnError?: boolean },
): Promise<ExecutorRun> {
  const lua = await new LuaFactory().createEngine();
  const run: ExecutorRun = { printed: [], premiumRuns: 0, fetched: [] };
  try {
    lua.global.set('__http_get', async (url: string) => {
      run.fetched.push(url);
      const res = await fetch(url);
      // Many executors' HttpGet raise on a non-2xx status, and the body (the reason) is lost.
      if (device.httpGetRaisesOnError && !res.ok) throw new Error(`HTTP ${res.status}`);
      return res.text();
    });
    lua.global.set('__url_encode', (text: string) => encodeURIComponent(text));
    lua.global.set('__print', (line: string) => run.printed.push(line));
    if (device.gethwid !== undefined) lua.global.set('__hwid', device.gethwid);
    lua.global.set('__client_id', device.clientId ?? 'roblox-client-id');
    await lua.doString(`
      loadstring = load
      print = function(...)
        local parts = {}
        for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
        __print(table.concat(parts, " "))
      end
      if __hwid then gethwid = function() return __hwid end end
      local services = {
        HttpService = { UrlEncode = function(_, text) return __url_encode(text) end },
        RbxAnalyticsService = { GetClientId = function() return __client_id end },
      }
      game = {
        GetService = function(_, name) return services[name] end,
        HttpGet = function(_, url) return __http_get(url):await() end,
      }
    `);
    // An executor runs the snippet in a protected call and shows what it raises.
    await lua.doString(snippet).catch((error: unknown) => {
      // wasmoon adds a traceback after the message: keep the message.
      run.raised = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    });
    run.premiumRuns = Number(lua.global.get('premium_runs') ?? 0);
  } finally {
    lua.global.close();
  }
  return run;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the premium loader run by a real Lua VM`, () => {
    const t = useTestApp(dialect, { signIn: true, listen: true });

    const origin = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

    it('reads the device id, binds it, and runs the premium script; the same device again uses the same binding', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, PREMIUM_SOURCE);
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      const snippet = buildLoaderSnippet(origin(), SCRIPT, key.scriptKey);

      const first = await runInExecutor(snippet, { gethwid: 'PC 1/α&=' });
      expect(first.premiumRuns).toBe(1);
      expect(first.printed).toEqual(['premium scanner running']);
      expect(first.raised).toBeUndefined();
      // The copied URL first (no device id: the bootstrap comes back), then the same URL with it.
      expect(first.fetched).toEqual([
        `${origin()}/api/script/loader?script=${SCRIPT}&key=${key.scriptKey}`,
        `${origin()}/api/script/loader?script=${SCRIPT}&key=${key.scriptKey}&hwid=${encodeURIComponent('PC 1/α&=')}`,
      ]);

      const again = await runInExecutor(snippet, { gethwid: 'PC 1/α&=' });
      expect(again.premiumRuns).toBe(1);
      const bindings = await scriptKeyBindings(t, key.id);
      expect(bindings.map((b) => [b.hardware_id, b.status])).toEqual([['PC 1/α&=', 'ACTIVE']]);
    });

    it('hands the served script the key and the device id as its argument, not in its text', async () => {
      // The premium script reads what its caller handed it (`...`) into globals the test reads.
      const reader =
        'local handed = ...\nhanded_key = handed and handed.key\nhanded_hwid = handed and handed.hwid\n';
      await savePremiumScript(t, t.cookie, SCRIPT, reader);
      const key = await insertTestScriptKey(t);
      const lua = await new LuaFactory().createEngine();
      try {
        lua.global.set('__http_get', async (url: string) => (await fetch(url)).text());
        lua.global.set('__url_encode', (text: string) => encodeURIComponent(text));
        await lua.doString(`
          loadstring = load
          gethwid = function() return "PC-7" end
          local services = { HttpService = { UrlEncode = function(_, text) return __url_encode(text) end } }
          game = {
            GetService = function(_, name) return services[name] end,
            HttpGet = function(_, url) return __http_get(url):await() end,
          }
        `);
        await lua.doString(buildLoaderSnippet(origin(), SCRIPT, key.scriptKey));
        expect(lua.global.get('handed_key')).toBe(key.scriptKey);
        expect(lua.global.get('handed_hwid')).toBe('PC-7');
      } finally {
        lua.global.close();
      }
    });

    it('refuses a second device beyond the limit: the executor prints why and the script never runs', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, PREMIUM_SOURCE);
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      const snippet = buildLoaderSnippet(origin(), SCRIPT, key.scriptKey);
      expect((await runInExecutor(snippet, { gethwid: 'device-1' })).premiumRuns).toBe(1);

      const second = await runInExecutor(snippet, { gethwid: 'device-2' });
      expect(second.premiumRuns).toBe(0);
      // Printed, then raised with the same reason: an executor shows one or the other.
      const reason = `[Scanline] This key is already bound to 1 device: the device limit is reached. Reset your devices at ${origin()}/key`;
      expect(second.printed).toEqual([reason]);
      expect(second.raised).toBe(reason);
      expect((await scriptKeyBindings(t, key.id)).map((b) => b.hardware_id)).toEqual(['device-1']);
    });

    it('an executor whose HttpGet raises on a non-2xx status still shows the reason for a wrong key', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, PREMIUM_SOURCE);
      const run = await runInExecutor(buildLoaderSnippet(origin(), SCRIPT, 'SK-wrong-key'), {
        gethwid: 'd',
        httpGetRaisesOnError: true,
      });
      expect(run.premiumRuns).toBe(0);
      expect(run.printed).toEqual([`[Scanline] ${ACCESS_TEXTS.unknownKey}`]);
      expect(run.raised).toBe(`[Scanline] ${ACCESS_TEXTS.unknownKey}`);
    });

    it('falls back to the Roblox client id on an executor without gethwid', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, PREMIUM_SOURCE);
      const key = await insertTestScriptKey(t);
      const run = await runInExecutor(buildLoaderSnippet(origin(), SCRIPT, key.scriptKey), {
        clientId: 'A1B2-C3D4',
      });
      expect(run.premiumRuns).toBe(1);
      expect((await scriptKeyBindings(t, key.id)).map((b) => b.hardware_id)).toEqual(['A1B2-C3D4']);
    });

    it('prints the reason for a key that cannot load, without asking for the device id', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, PREMIUM_SOURCE);
      const run = await runInExecutor(buildLoaderSnippet(origin(), SCRIPT, 'SK-not-a-key'), { gethwid: 'd' });
      expect(run.premiumRuns).toBe(0);
      expect(run.printed).toEqual([`[Scanline] ${ACCESS_TEXTS.unknownKey}`]);
      expect(run.raised).toBe(`[Scanline] ${ACCESS_TEXTS.unknownKey}`);
      expect(run.fetched).toHaveLength(1);
    });
  });
}
