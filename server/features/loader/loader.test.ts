import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import { UNIVERSAL_SCRIPT_FILE } from '../../../common/scripts.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { multipartBody } from '../../test/multipart.ts';
import { loaderStopChunk } from './loader-response.ts';
import { loaderStatus, rawScriptOf, scriptOf } from './script-access.fixtures.ts';

const shippedBytes = (name: string) => readFileSync(new URL(`../../../scripts/${name}`, import.meta.url));

for (const dialect of DIALECTS) {
  describe(`${dialect}: script loader`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const load = (query: string) => t.app.inject({ method: 'GET', url: `/api/script/loader${query}` });
    const makePremium = (name: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/scripts/${encodeURIComponent(name)}/access-type`,
        headers: { cookie: t.cookie },
        payload: { accessType: 'PREMIUM' },
      });

    /** A refusal is Lua the executor can run: one print of the reason. */
    const expectLuaRefusal = (res: Awaited<ReturnType<typeof load>>, status: number, message: string) => {
      expect(res.statusCode).toBe(200);
      expect(loaderStatus(res)).toBe(status);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(loaderStopChunk(message));
      expect(findLuaSyntaxError(res.body)).toBeNull();
    };

    it('serves a FREE script keyless, byte for byte, as plain text that no cache keeps', async () => {
      const res = await load(`?script=${FREE_SCRIPT_FILE}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(rawScriptOf(res.rawPayload).equals(shippedBytes(FREE_SCRIPT_FILE))).toBe(true);
    });

    it('serves the new version the moment it is saved', async () => {
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie: t.cookie },
        payload: { filename: FREE_SCRIPT_FILE, content: 'print("v2")\r\n' },
      });
      expect(scriptOf(await load(`?script=${FREE_SCRIPT_FILE}`))).toBe('print("v2")\r\n');
    });

    it('asks for a key for a PREMIUM script, and refuses a key that does not exist', async () => {
      await makePremium(UNIVERSAL_SCRIPT_FILE);
      expectLuaRefusal(
        await load(`?script=${UNIVERSAL_SCRIPT_FILE}`),
        401,
        'This script needs a premium key: redeem a code in the universal script',
      );
      expectLuaRefusal(
        await load(`?script=${UNIVERSAL_SCRIPT_FILE}&key=SCAN-AAAAA-BBBBB&hwid=device-1`),
        403,
        'This key does not exist: check it, or redeem a code in the universal script',
      );
    });

    it('ships the premium scanner as a PREMIUM script: never served keyless', async () => {
      expectLuaRefusal(
        await load('?script=scanline-premium.lua'),
        401,
        'This script needs a premium key: redeem a code in the universal script',
      );
    });

    it('serves a FREE script to a caller that sends a key and device anyway, binding nothing', async () => {
      const res = await load(`?script=${FREE_SCRIPT_FILE}&key=SK-anything&hwid=device-1`);
      expect(res.statusCode).toBe(200);
      expect(rawScriptOf(res.rawPayload).equals(shippedBytes(FREE_SCRIPT_FILE))).toBe(true);
      expect(await t.ctx.db.selectFrom('hardware_bindings').selectAll().execute()).toEqual([]);
    });

    it('answers 503 in Lua, not a JSON 500, when the database cannot be read', async () => {
      vi.spyOn(t.ctx.db, 'selectFrom').mockImplementationOnce(() => {
        throw new Error('database down');
      });
      expectLuaRefusal(
        await load(`?script=${FREE_SCRIPT_FILE}`),
        503,
        'The loader is unavailable right now: try again in a moment',
      );
      // The failed read was not kept: the next call reads again.
      expect((await load(`?script=${FREE_SCRIPT_FILE}`)).statusCode).toBe(200);
    });

    it('refuses a private FREE script as if it did not exist, also right after it was served public', async () => {
      const upload = (isPublic: 'true' | 'false', content: string) => {
        const { payload, headers } = multipartBody([
          { name: 'isPublic', value: isPublic },
          { name: 'file', filename: 'team-only.lua', content },
        ]);
        return t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/upload',
          headers: { ...headers, cookie: t.cookie },
          payload,
        });
      };
      expect((await upload('false', 'print("v1")')).statusCode).toBe(201);
      expectLuaRefusal(await load('?script=team-only.lua'), 404, 'Script not found: team-only.lua');

      expect((await upload('true', 'print("v2")')).statusCode).toBe(200);
      expect(scriptOf(await load('?script=team-only.lua'))).toBe('print("v2")');
      // Made private again: the copy the loader keeps in memory goes with the change.
      expect((await upload('false', 'print("v3")')).statusCode).toBe(200);
      expectLuaRefusal(await load('?script=team-only.lua'), 404, 'Script not found: team-only.lua');
    });

    it('finds a script whatever the case of its name, and serves the new version under every spelling', async () => {
      const upper = FREE_SCRIPT_FILE.toUpperCase();
      expect(
        rawScriptOf((await load(`?script=${upper}`)).rawPayload).equals(shippedBytes(FREE_SCRIPT_FILE)),
      ).toBe(true);
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie: t.cookie },
        payload: { filename: FREE_SCRIPT_FILE, content: 'print("v2")' },
      });
      expect(scriptOf(await load(`?script=${upper}`))).toBe('print("v2")');
    });

    it('answers an unknown script with 404 and a bad request with 400, both as Lua', async () => {
      expectLuaRefusal(await load('?script=missing.lua'), 404, 'Script not found: missing.lua');
      expectLuaRefusal(await load(''), 400, 'Bad loader request: script is required');
      expectLuaRefusal(
        await load('?script=..%2Fpackage.json'),
        400,
        'Bad loader request: script: filename must not contain ".."',
      );
      expectLuaRefusal(
        await load(`?script=${FREE_SCRIPT_FILE}&key=`),
        400,
        'Bad loader request: key: key must not be empty',
      );
      expectLuaRefusal(
        await load(`?script=${FREE_SCRIPT_FILE}&script=${UNIVERSAL_SCRIPT_FILE}`),
        400,
        'Bad loader request: script must be given once',
      );
    });
  });

  describe(`${dialect}: the loader as an executor calls it`, () => {
    const t = useTestApp(dialect, { listen: true });

    it('runs the copied snippet: the URL inside game:HttpGet fetches the free script exactly as shipped', async () => {
      const { port } = t.app.server.address() as AddressInfo;
      const snippet = buildLoaderSnippet(`http://127.0.0.1:${port}`, FREE_SCRIPT_FILE);
      // What the executor evaluates: the string literal handed to game:HttpGet.
      const url = /game:HttpGet\("([^"]+)"\)/.exec(snippet)?.[1];
      expect(url).toBe(`http://127.0.0.1:${port}/api/script/loader?script=${FREE_SCRIPT_FILE}`);
      const res = await fetch(url ?? '', { headers: { 'User-Agent': 'Roblox/WinInet' } });
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(rawScriptOf(body).equals(shippedBytes(FREE_SCRIPT_FILE))).toBe(true);
      expect(findLuaSyntaxError(body.toString('utf8'))).toBeNull();
    });
  });
}
