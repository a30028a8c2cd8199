import { describe, expect, it } from 'vitest';
import { TOO_DEEPLY_NESTED, TOO_LARGE } from '../../../common/lua-syntax.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { multipartBody } from '../../test/multipart.ts';
import { loaderStatus, rawScriptOf, scriptOf } from '../loader/script-access.fixtures.ts';

/** Everyday Roblox Luau: compound assignment, continue, type annotations, backtick strings. */
const LUAU_SCRIPT = [
  '--!strict',
  'type Pet = { name: string, rate: number }',
  '',
  'local function worth(pet: Pet): string',
  '  return `{pet.name} makes {pet.rate}M/s`',
  'end',
  '',
  'local total: number = 0',
  'for _, pet: Pet in { { name = "Dragon", rate = 12 }, { name = "Cat", rate = 0 } } do',
  '  if pet.rate == 0 then continue end',
  '  total += pet.rate',
  '  print(worth(pet))',
  'end',
  'print(`total {total}M/s`)',
  '',
].join('\r\n');

for (const dialect of DIALECTS) {
  describe(`${dialect}: Luau scripts`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const load = (name: string) => t.app.inject({ method: 'GET', url: `/api/script/loader?script=${name}` });
    const save = (filename: string, content: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie: t.cookie },
        payload: { filename, content },
      });
    const upload = (filename: string, content: Buffer | string) => {
      const { payload, headers } = multipartBody([
        { name: 'isPublic', value: 'true' },
        { name: 'file', filename, content },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/upload',
        headers: { ...headers, cookie: t.cookie },
        payload,
      });
    };
    const check = (content: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/check-syntax',
        headers: { cookie: t.cookie },
        payload: { content },
      });

    it('saves a Luau script and the loader serves it byte for byte', async () => {
      const saved = await save('pets.lua', LUAU_SCRIPT);
      expect(saved.statusCode, saved.body).toBe(201);

      const res = await load('pets.lua');
      expect(res.statusCode).toBe(200);
      expect(scriptOf(res)).toBe(LUAU_SCRIPT);
    });

    it('takes a new version in Luau over a plain Lua one', async () => {
      expect((await save('pets.lua', 'print("v1")\n')).statusCode).toBe(201);
      const saved = await save('pets.lua', LUAU_SCRIPT);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().version).toMatchObject({ version: 2, content: LUAU_SCRIPT });
      expect(scriptOf(await load('pets.lua'))).toBe(LUAU_SCRIPT);
    });

    it('uploads a Luau file (with a byte-order mark) and the loader serves the same bytes', async () => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LUAU_SCRIPT, 'utf8')]);
      const uploaded = await upload('pets-upload.lua', bytes);
      expect(uploaded.statusCode, uploaded.body).toBe(201);

      const res = await load('pets-upload.lua');
      expect(res.statusCode).toBe(200);
      expect(rawScriptOf(res.rawPayload).equals(bytes)).toBe(true);
    });

    it('still refuses broken Luau, naming the line, and stores nothing', async () => {
      const broken = 'local n: number = 1\nn += = 2\nprint(`{n}`)\n';
      const res = await save('broken.lua', broken);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'Lua syntax error on line 2: unexpected token `+=`, expected expression to set to',
        syntaxError: { line: 2, column: 3, message: 'unexpected token `+=`, expected expression to set to' },
      });
      expect(loaderStatus(await load('broken.lua'))).toBe(404);
    });

    it('refuses Luau nested deeper than the parser follows with a 400, and checks the next save as usual', async () => {
      const deep = `${'if x then '.repeat(300)}x += 1 ${'end '.repeat(300)}`;
      const res = await save('deep.lua', deep);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(`Lua syntax error on line 1: ${TOO_DEEPLY_NESTED}`);
      expect((await save('deep.lua', LUAU_SCRIPT)).statusCode).toBe(201);
    });

    it('saves plain Lua beyond the Luau parser: deeply nested, or a dense data table', async () => {
      const deep = `${'if x then '.repeat(300)}x = x + 1 ${'end '.repeat(300)}`;
      expect((await save('deep.lua', deep)).statusCode).toBe(201);
      // 400,000 short entries: more than full-moon's memory (capped at 1 GiB) holds.
      const table = `return {${'1,'.repeat(400_000)}}\n`;
      expect((await save('table.lua', table)).statusCode).toBe(201);
      expect(scriptOf(await load('table.lua'))).toBe(table);
    });

    it('refuses Luau too large for the parser with a 400 saying so', async () => {
      const dense = `local n: number = 0\n${'n += 1\n'.repeat(120_000)}`;
      const res = await save('dense.lua', dense);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(`Lua syntax error on line 1: ${TOO_LARGE}`);
    });

    describe('the editor check', () => {
      it('answers ok for Luau and plain Lua, and stores nothing', async () => {
        for (const content of [LUAU_SCRIPT, 'local t = {}\nfunction t:m(...) return ... end\n', '']) {
          const res = await check(content);
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ ok: true });
        }
        expect(loaderStatus(await load('pets.lua'))).toBe(404);
      });

      it('answers where the text breaks, with the text a save would refuse it with', async () => {
        const res = await check('local x = 1\nprint(x');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          ok: false,
          error: 'Lua syntax error on line 2: unexpected token `(`, expected `)` to close function call',
          syntaxError: {
            line: 2,
            column: 6,
            message: 'unexpected token `(`, expected `)` to close function call',
          },
        });
      });

      it('refuses a body without text content, or over 1 MiB, with 400 naming the problem', async () => {
        expect((await check(42)).json()).toMatchObject({ error: 'content: content must be a string' });
        const tooBig = await check(`--${'x'.repeat(1024 * 1024)}`);
        expect(tooBig.statusCode).toBe(400);
        expect(tooBig.json()).toMatchObject({ error: 'content: content must be at most 1 MiB' });
      });

      it('is for the signed-in admin only', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/check-syntax',
          payload: { content: 'print(1)' },
        });
        expect(res.statusCode).toBe(401);
      });
    });
  });
}
