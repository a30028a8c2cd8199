import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { insertTestScriptKey } from '../loader/script-access.fixtures.ts';
import { HUGE, LARGE, MIDDLE, reportFinds, SMALL, TEST_PLACE_ID } from './feed.fixtures.ts';

const SCRIPTS_DIR = resolve(import.meta.dirname, '../../../scripts');

/** A Lua string literal of any text (bytes outside printable ASCII as decimal escapes). */
function luaString(text: string): string {
  const bytes = [...Buffer.from(text, 'utf8')];
  const printable = (b: number) => b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c;
  return `"${bytes.map((b) => (printable(b) ? String.fromCharCode(b) : `\\${b}`)).join('')}"`;
}

/** JSON as a Lua table constructor, null as nil: what Roblox's HttpService:JSONDecode returns. */
function luaLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return luaString(value);
  if (Array.isArray(value)) return `{${value.map(luaLiteral).join(',')}}`;
  const fields = Object.entries(value as Record<string, unknown>);
  return `{${fields.map(([k, v]) => `[${luaString(k)}]=${luaLiteral(v)}`).join(',')}}`;
}

/** What a script left on screen and did. */
interface ScriptRun {
  /** Text of every visible button (the finds' rows), top to bottom as created. */
  rows: string[];
  /** Text of every label. */
  labels: string[];
  /** TeleportService:TeleportToPlaceInstance calls: [placeId, jobId]. */
  teleports: Array<[number, string]>;
  fetched: string[];
}

/**
 * Runs a loader snippet the way an executor does, in a real Lua VM (Lua 5.4 through wasmoon), with
 * just enough of Roblox stubbed for the shipped scripts' panels: Instance.new makes plain tables the
 * test reads back, HttpGet is a real HTTP GET over loopback, task.wait lets the script poll `polls`
 * times (running `beforePoll(n)` first, so the test can report finds between polls) and then ends
 * its loop.
 */
async function runScript(
  snippet: string,
  options: {
    polls: number;
    beforePoll?: (poll: number) => Promise<unknown>;
    genv?: Record<string, string>;
    hwid?: string;
  },
): Promise<ScriptRun> {
  const lua = await new LuaFactory().createEngine();
  const run: ScriptRun = { rows: [], labels: [], teleports: [], fetched: [] };
  let waits = 0;
  try {
    lua.global.set('__http_get', async (url: string) => {
      run.fetched.push(url);
      return (await fetch(url)).text();
    });
    lua.global.set('__json_to_lua', (text: string) => luaLiteral(JSON.parse(text)));
    lua.global.set('__url_encode', (text: string) => encodeURIComponent(text));
    lua.global.set('__teleport', (placeId: number, jobId: string) => run.teleports.push([placeId, jobId]));
    lua.global.set('__task_wait', async (seconds: number) => {
      waits += 1;
      if (waits > options.polls) return undefined; // nil: the script's poll loop ends
      await options.beforePoll?.(waits);
      return seconds;
    });
    if (options.hwid !== undefined) lua.global.set('__hwid', options.hwid);
    await lua.doString(`
      loadstring = load
      __genv = {${Object.entries(options.genv ?? {})
        .map(([k, v]) => `[${luaString(k)}]=${luaString(v)}`)
        .join(',')}}
      getgenv = function() return __genv end
      if __hwid then gethwid = function() return __hwid end end
      __instances = {}
      local function anything(name)
        return setmetatable({}, { __index = function(_, key) return name .. "." .. key end })
      end
      Enum = setmetatable({}, { __index = function(_, key) return anything(key) end })
      UDim2 = { new = function(...) return { ... } end }
      Color3 = { fromRGB = function(...) return { ... } end }
      Instance = {
        new = function(className)
          local object = { ClassName = className, MouseButton1Click = { Connect = function() end } }
          table.insert(__instances, object)
          return object
        end,
      }
      task = {
        wait = function(seconds) return __task_wait(seconds or 0):await() end,
        spawn = function(fn, ...) return fn(...) end,
      }
      local services = {
        HttpService = {
          UrlEncode = function(_, text) return __url_encode(text) end,
          JSONDecode = function(_, text) return load("return " .. __json_to_lua(text))() end,
        },
        Players = { LocalPlayer = {} },
        TeleportService = {
          TeleportToPlaceInstance = function(_, placeId, jobId) __teleport(placeId, jobId) end,
        },
        CoreGui = {},
        RbxAnalyticsService = { GetClientId = function() return "roblox-client-id" end },
      }
      game = {
        GetService = function(_, name) return services[name] end,
        HttpGet = function(_, url) return __http_get(url):await() end,
      }
      function __texts(className, visibleOnly)
        local texts = {}
        for _, object in ipairs(__instances) do
          if object.ClassName == className and (not visibleOnly or object.Visible) then
            table.insert(texts, object.Text or "")
          end
        end
        return table.concat(texts, "\\n")
      end
    `);
    await lua.doString(snippet);
    const texts = async (className: string, visibleOnly: boolean) => {
      const joined = String(await lua.doString(`return __texts("${className}", ${visibleOnly})`));
      return joined === '' ? [] : joined.split('\n');
    };
    run.rows = await texts('TextButton', true);
    run.labels = await texts('TextLabel', false);
  } finally {
    lua.global.close();
  }
  return run;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the shipped scripts on the discovery feed, in a real Lua VM`, () => {
    const t = useTestApp(dialect, { listen: true, env: { SCRIPTS_DIR } });
    const origin = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

    it('scanline-free.lua shows only finds below 10M/s, joins only where the server sent join data, and polls by cursor', async () => {
      await reportFinds(t, [SMALL, LARGE, MIDDLE, HUGE]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-free.lua'), {
        polls: 2,
        genv: { SCANLINE_URL: origin() },
        beforePoll: async (poll) => {
          if (poll === 2) await reportFinds(t, [HUGE, { name: 'Tralalero Tralala', value: '$2.5M/s' }]);
        },
      });
      // Newest first; the 6.2M/s find is shown without a way to join it.
      expect(run.rows).toEqual([
        '  Tralalero Tralala  $2.5M/s',
        `  ${MIDDLE.name}  ${MIDDLE.value}  (premium join)`,
        `  ${SMALL.name}  ${SMALL.value}`,
      ]);
      expect(run.labels).toContain('Live - 3 finds below 10M/s');
      const feedCalls = run.fetched.filter((url) => url.includes('/api/script/feed'));
      expect(feedCalls).toHaveLength(2);
      const cursors = feedCalls.map((url) => Number(new URL(url).searchParams.get('since')));
      expect(cursors[0]).toBe(0);
      expect(cursors[1]).toBeGreaterThan(0);
    });

    it('scanline-premium.lua, loaded through the loader with a key, shows a 50M/s find with its join data and joins it', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [SMALL]);
      let hugeJob = '';
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-premium.lua', key.scriptKey), {
        polls: 2,
        hwid: 'premium-device',
        genv: { SCANLINE_URL: origin(), SCANLINE_KEY: key.scriptKey },
        beforePoll: async (poll) => {
          if (poll === 2) [hugeJob = ''] = await reportFinds(t, [HUGE]);
        },
      });
      expect(run.rows.filter((row) => row.startsWith('  '))).toEqual([
        `  ${HUGE.name}  ${HUGE.value}  [join]`,
        `  ${SMALL.name}  ${SMALL.value}  [join]`,
      ]);
      // Auto-join from 5M/s, with the server's join data (never into the first poll's backlog).
      expect(run.teleports).toEqual([[Number(TEST_PLACE_ID), hugeJob]]);
      expect(run.labels).toContain('Live - every find (2 shown)');
      const feedCall = run.fetched.find((url) => url.includes('/api/script/feed')) ?? '';
      expect(new URL(feedCall).searchParams.get('hwid')).toBe('premium-device');
    });

    it('scanline-universal.lua shows the latest free find without a key, polling by cursor', async () => {
      await reportFinds(t, [SMALL, HUGE]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-universal.lua'), {
        polls: 2,
        genv: { SCANLINE_URL: origin() },
        beforePoll: async (poll) => {
          if (poll === 2) await reportFinds(t, [MIDDLE, LARGE]);
        },
      });
      expect(run.labels).toContain(`${MIDDLE.name} - ${MIDDLE.value}`);
      expect(run.labels).toContain('Live - free finds below 10M/s');
      const feedCalls = run.fetched.filter((url) => url.includes('/api/script/feed'));
      const cursors = feedCalls.map((url) => Number(new URL(url).searchParams.get('since')));
      expect(cursors).toHaveLength(2);
      expect(cursors[1]).toBeGreaterThan(0);
    });
  });
}
