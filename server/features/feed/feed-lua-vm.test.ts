import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LuaFactory } from 'wasmoon';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { ACCESS_TEXTS } from '../loader/loader-access.ts';
import { insertRedemptionCode, insertTestScriptKey } from '../loader/script-access.fixtures.ts';
import { HUGE, LARGE, MIDDLE, reportFinds, reportNextMinute, SMALL, TEST_PLACE_ID } from './feed.fixtures.ts';

const SCRIPTS_DIR = resolve(import.meta.dirname, '../../../scripts');
const KEY_FILE = 'scanline-key.txt';

/** A shipped script's source, run as is (a saved copy, without the loader's preamble). */
function scriptSource(name: string): string {
  return readFileSync(resolve(SCRIPTS_DIR, name), 'utf8');
}

/** The feed calls a run made, as URLs. */
function feedCalls(run: { fetched: string[] }): URL[] {
  return run.fetched.filter((url) => url.includes('/api/script/feed')).map((url) => new URL(url));
}

/** A feed answer whose server clock reads `seconds` later: every find in it is that much older. */
function agedBy(seconds: number) {
  return (url: string, body: string): string => {
    if (!url.includes('/api/script/feed')) return body;
    const answer = JSON.parse(body) as { serverTime?: string };
    if (answer.serverTime)
      answer.serverTime = new Date(Date.parse(answer.serverTime) + seconds * 1000).toISOString();
    return JSON.stringify(answer);
  };
}

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
  /** Lines printed or warned. */
  printed: string[];
  /** The executor's files after the run (writefile). */
  files: Record<string, string>;
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
    /** The executor's files before the run (isfile/readfile/writefile). */
    files?: Record<string, string>;
    /** Rewrites an answer's body before the script sees it (e.g. to age the finds). */
    answer?: (url: string, body: string) => string;
    /**
     * How game:HttpGet treats a non-2xx status: 'returns' the body (the default), 'raises' an error
     * quoting the URL (many executors), 'raises-no-request' the same on an executor without request.
     */
    httpGet?: 'returns' | 'raises' | 'raises-no-request';
    /** Lua run inside the n-th task.wait, before it returns: the player's clicks and typing. */
    playerAt?: Record<number, string>;
  },
): Promise<ScriptRun> {
  const lua = await new LuaFactory().createEngine();
  const run: ScriptRun = {
    rows: [],
    labels: [],
    teleports: [],
    fetched: [],
    printed: [],
    files: { ...options.files },
  };
  let waits = 0;
  let lastStatus = 0;
  try {
    lua.global.set('__http_get', async (url: string) => {
      run.fetched.push(url);
      const res = await fetch(url);
      lastStatus = res.status;
      const body = await res.text();
      return options.answer ? options.answer(url, body) : body;
    });
    lua.global.set('__http_status', () => lastStatus);
    lua.global.set('__http_post', async (url: string, body: string) => {
      run.fetched.push(url);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      lastStatus = res.status;
      return res.text();
    });
    lua.global.set('__player_at', (wait: number) => options.playerAt?.[wait] ?? '');
    lua.global.set('__http_get_raises', options.httpGet !== undefined && options.httpGet !== 'returns');
    lua.global.set('__has_request', options.httpGet !== 'raises-no-request');
    lua.global.set('__print', (line: string) => run.printed.push(line));
    lua.global.set('__isfile', (name: string) => name in run.files);
    lua.global.set('__readfile', (name: string) => run.files[name] ?? '');
    lua.global.set('__writefile', (name: string, text: string) => {
      run.files[name] = text;
    });
    lua.global.set('__json_to_lua', (text: string) => luaLiteral(JSON.parse(text)));
    lua.global.set('__url_encode', (text: string) => encodeURIComponent(text));
    lua.global.set('__teleport', (placeId: number, jobId: string) => run.teleports.push([placeId, jobId]));
    lua.global.set('__waits', () => waits);
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
          local object = { ClassName = className }
          -- Connect keeps the handler so the player can click (__click).
          object.MouseButton1Click = { Connect = function(_, fn) object.__onClick = fn end }
          table.insert(__instances, object)
          return object
        end,
      }
      task = {
        wait = function(seconds)
          local result = __task_wait(seconds or 0):await()
          local player = result and __player_at(__waits())
          if player and player ~= "" then load(player)() end
          return result
        end,
        spawn = function(fn, ...) return fn(...) end,
      }
      local services = {
        HttpService = {
          UrlEncode = function(_, text) return __url_encode(text) end,
          JSONDecode = function(_, text) return load("return " .. __json_to_lua(text))() end,
          -- Enough for a flat table of strings (the redeem body).
          JSONEncode = function(_, value)
            local parts = {}
            for k, v in pairs(value) do table.insert(parts, string.format("%q:%q", k, v)) end
            return "{" .. table.concat(parts, ",") .. "}"
          end,
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
        HttpGet = function(_, url)
          local body = __http_get(url):await()
          if __http_get_raises and __http_status() >= 300 then
            error("HttpGet failed: HTTP " .. __http_status() .. " " .. url, 0)
          end
          return body
        end,
      }
      if __has_request then
        request = function(options)
          local body
          if options.Method == "POST" then
            body = __http_post(options.Url, options.Body or ""):await()
          else
            body = __http_get(options.Url):await()
          end
          return { StatusCode = __http_status(), Body = body }
        end
      end
      print = function(...)
        local parts = {}
        for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
        __print(table.concat(parts, " "))
      end
      warn = print
      isfile = function(name) return __isfile(name) end
      readfile = function(name) return __readfile(name) end
      writefile = function(name, text) __writefile(name, text) end
      -- The player clicks the button showing this text, or types into the first TextBox.
      function __click(text)
        for _, object in ipairs(__instances) do
          if object.ClassName == "TextButton" and object.Text == text and object.__onClick then return object.__onClick() end
        end
        error("no button " .. text)
      end
      function __type(text)
        for _, object in ipairs(__instances) do
          if object.ClassName == "TextBox" then object.Text = text return end
        end
      end
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
          // A minute on: the 6.2M/s find the free tier holds comes with these (free-tier.ts).
          if (poll === 2) await reportNextMinute(t, [HUGE, { name: 'Tralalero Tralala', value: '$2.5M/s' }]);
        },
      });
      // Newest first; the 6.2M/s find is shown without a way to join it.
      expect(run.rows).toEqual([
        '  Tralalero Tralala  $2.5M/s',
        `  ${MIDDLE.name}  ${MIDDLE.value}  (premium join)`,
        `  ${SMALL.name}  ${SMALL.value}`,
      ]);
      expect(run.labels).toContain('Live - 3 finds below 10M/s');
      const calls = feedCalls(run);
      expect(calls).toHaveLength(2);
      // The first read starts at the present (no cursor); the next goes on from the server's cursor.
      expect(calls[0]?.searchParams.has('since')).toBe(false);
      expect(Number(calls[1]?.searchParams.get('since'))).toBeGreaterThan(0);
    });

    it('scanline-free.lua counts the finds received, not the rows shown, newest first', async () => {
      const many = Array.from({ length: 10 }, (_, i) => ({ name: `Find ${i + 1}`, value: '$100K/s' }));
      await reportFinds(t, many);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-free.lua'), {
        polls: 1,
        genv: { SCANLINE_URL: origin() },
      });
      expect(run.rows).toEqual(
        many
          .slice(2)
          .reverse()
          .map((find) => `  ${find.name}  $100K/s`),
      );
      expect(run.labels).toContain('Live - 10 finds below 10M/s');
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

    it('scanline-premium.lua from the key snippet alone, on a fresh device: gets the feed with the key, saves it, never shows it', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [SMALL]);
      let hugeJob = '';
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-premium.lua', key.scriptKey), {
        polls: 2,
        hwid: 'fresh-device',
        beforePoll: async (poll) => {
          if (poll === 2) [hugeJob = ''] = await reportFinds(t, [HUGE]);
        },
      });
      const calls = feedCalls(run);
      expect(calls).toHaveLength(2);
      expect(calls.map((url) => [url.searchParams.get('key'), url.searchParams.get('hwid')])).toEqual([
        [key.scriptKey, 'fresh-device'],
        [key.scriptKey, 'fresh-device'],
      ]);
      expect(calls[0]?.searchParams.has('since')).toBe(false);
      expect(run.teleports).toEqual([[Number(TEST_PLACE_ID), hugeJob]]);
      expect(run.files[KEY_FILE]).toBe(key.scriptKey);
      for (const text of [...run.printed, ...run.labels, ...run.rows])
        expect(text).not.toContain(key.scriptKey);
    });

    it('scanline-premium.lua auto-joins no find older than the limit by the server clock, and still lists it', async () => {
      const key = await insertTestScriptKey(t);
      // Every poll finds something (else the long-poll holds the answer for its full wait).
      await reportFinds(t, [SMALL]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-premium.lua', key.scriptKey), {
        polls: 2,
        hwid: 'premium-device',
        genv: { SCANLINE_URL: origin() },
        answer: agedBy(16),
        beforePoll: async (poll) => {
          if (poll === 2) await reportFinds(t, [HUGE]);
        },
      });
      expect(run.rows).toContain(`  ${HUGE.name}  ${HUGE.value}  [join]`);
      expect(run.teleports).toEqual([]);
    });

    it('scanline-premium.lua shows the feed refusal on an executor whose HttpGet raises, and never the key', async () => {
      const inactive = await insertTestScriptKey(t, { isActive: 0 });
      const genv = { SCANLINE_URL: origin(), SCANLINE_KEY: inactive.scriptKey };
      // With a request function the script still reads the server's reason.
      const withRequest = await runScript(scriptSource('scanline-premium.lua'), {
        polls: 1,
        hwid: 'd',
        genv,
        httpGet: 'raises',
      });
      expect(withRequest.labels).toContain(ACCESS_TEXTS.inactiveKey);
      // Without one, what HttpGet raised, with the key taken out of the URL it quotes.
      const without = await runScript(scriptSource('scanline-premium.lua'), {
        polls: 1,
        hwid: 'd',
        genv,
        httpGet: 'raises-no-request',
      });
      expect(
        without.labels.some(
          (text) => text.startsWith('HttpGet failed: HTTP 403') && text.includes('key=***'),
        ),
      ).toBe(true);
      for (const text of [...withRequest.labels, ...without.labels, ...without.printed]) {
        expect(text).not.toContain(inactive.scriptKey);
      }
    });

    it('scanline-universal.lua with a saved key hands the feed over to premium: its own free loop makes no call', async () => {
      const key = await insertTestScriptKey(t);
      await reportFinds(t, [SMALL]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-universal.lua'), {
        polls: 1,
        hwid: 'universal-device',
        genv: { SCANLINE_URL: origin() },
        files: { [KEY_FILE]: key.scriptKey },
      });
      const calls = feedCalls(run);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((url) => url.searchParams.get('key') === key.scriptKey)).toBe(true);
      expect(run.labels).toContain('Premium loaded');
    });

    it('scanline-universal.lua redeems a code, saves the key and hands the feed over to premium: one feed loop', async () => {
      const { code } = await insertRedemptionCode(t);
      await reportFinds(t, [SMALL]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-universal.lua'), {
        polls: 3,
        hwid: 'redeem-device',
        genv: { SCANLINE_URL: origin() },
        playerAt: { 2: `__type(" ${code} ") __click("Redeem & load premium")` },
        beforePoll: async (poll) => {
          if (poll === 3) await reportFinds(t, [MIDDLE]);
        },
      });
      const key = run.files[KEY_FILE] ?? '';
      expect(key).toMatch(/\S/);
      expect(run.labels).toContain('Premium loaded');
      // The free poll before the redeem, then only premium's polls with the new key.
      const calls = feedCalls(run);
      expect(calls.map((url) => url.searchParams.get('key'))).toEqual([null, key]);
      for (const text of [...run.printed, ...run.labels, ...run.rows]) expect(text).not.toContain(key);
    });

    it('scanline-universal.lua with a saved key the loader refuses shows why and keeps the free feed', async () => {
      await reportFinds(t, [SMALL]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-universal.lua'), {
        polls: 2,
        hwid: 'universal-device',
        genv: { SCANLINE_URL: origin() },
        files: { [KEY_FILE]: 'SK-not-a-key' },
        beforePoll: async (poll) => {
          if (poll === 2) await reportFinds(t, [MIDDLE]);
          if (poll === 2) await reportNextMinute(t);
        },
      });
      expect(run.labels).toContain(ACCESS_TEXTS.unknownKey);
      const calls = feedCalls(run);
      expect(calls).toHaveLength(2);
      expect(calls.every((url) => !url.searchParams.has('key'))).toBe(true);
    });

    it('scanline-universal.lua shows the latest free find without a key, polling by cursor', async () => {
      await reportFinds(t, [SMALL, HUGE]);
      const run = await runScript(buildLoaderSnippet(origin(), 'scanline-universal.lua'), {
        polls: 2,
        genv: { SCANLINE_URL: origin() },
        beforePoll: async (poll) => {
          if (poll === 2) await reportFinds(t, [MIDDLE, LARGE]);
          // Released to the free tier by the first find of a later minute.
          if (poll === 2) await reportNextMinute(t, [HUGE]);
        },
      });
      expect(run.labels).toContain(`${MIDDLE.name} - ${MIDDLE.value}`);
      expect(run.labels).toContain('Live - free finds below 10M/s');
      const calls = feedCalls(run);
      expect(calls).toHaveLength(2);
      expect(calls[0]?.searchParams.has('since')).toBe(false);
      expect(Number(calls[1]?.searchParams.get('since'))).toBeGreaterThan(0);
    });
  });
}
