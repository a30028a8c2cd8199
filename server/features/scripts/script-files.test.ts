import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import {
  MAX_SCRIPT_BYTES,
  PREMIUM_PANEL_FILE,
  PREMIUM_SCRIPT_FILE,
  SCRIPT_TEXTS,
  type ScriptFileRecord,
  UNIVERSAL_SCRIPT_FILE,
} from '../../../common/scripts.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { type MultipartPart, multipartBody } from '../../test/multipart.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

for (const dialect of DIALECTS) {
  describe(`${dialect}: script files`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const uploadParts = (parts: MultipartPart[], cookie: string | null = t.cookie) => {
      const { payload, headers } = multipartBody(parts);
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/upload',
        headers: { ...headers, ...(cookie ? { cookie } : {}) },
        payload,
      });
    };
    const upload = (filename: string, content: Buffer | string, fields: Record<string, string> = {}) =>
      uploadParts([
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        { name: 'file', filename, content },
      ]);
    const download = (name: string, cookie?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/hosted-scripts/${encodeURIComponent(name)}`,
        headers: cookie ? { cookie } : {},
      });
    const allFiles = async (): Promise<ScriptFileRecord[]> =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/all-scripts/list',
          headers: { cookie: t.cookie },
        })
      ).json();
    const hostedFiles = async (): Promise<ScriptFileRecord[]> =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/hosted-scripts/list',
          headers: { cookie: t.cookie },
        })
      ).json().files;
    const deleteFile = (id: number | string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/hosted-scripts/${id}`,
        headers: { cookie: t.cookie },
      });
    const storedNames = async () =>
      (await t.ctx.db.selectFrom('scripts').select('filename').orderBy('filename').execute()).map(
        (r) => r.filename,
      );

    describe('listing', () => {
      it('lists shipped files first, then hosted ones, each by name, with where they live and their URL', async () => {
        t.clock.advance(1500);
        expect((await upload('zeta.lua', 'return 1')).statusCode).toBe(201);
        expect((await upload('Alpha.lua', 'return 2', { isPublic: 'false' })).statusCode).toBe(201);
        const files = await allFiles();
        expect(files.map((f) => [f.filename, f.location])).toEqual([
          [FREE_SCRIPT_FILE, 'project'],
          [PREMIUM_PANEL_FILE, 'project'],
          [PREMIUM_SCRIPT_FILE, 'project'],
          [UNIVERSAL_SCRIPT_FILE, 'project'],
          ['Alpha.lua', 'hosted-scripts'],
          ['zeta.lua', 'hosted-scripts'],
        ]);
        expect(files[0]).toMatchObject({
          storedFilename: `scripts/${FREE_SCRIPT_FILE}`,
          url: `/api/hosted-scripts/${FREE_SCRIPT_FILE}`,
          isPublic: true,
          accessType: 'FREE',
          uploadedAt: Math.floor(Date.UTC(2026, 10, 22, 12) / 1000),
        });
        expect(files[4]).toMatchObject({
          storedFilename: 'hosted-scripts/Alpha.lua',
          fileSize: 8,
          isPublic: false,
          uploadedAt: Math.floor((Date.UTC(2026, 10, 22, 12) + 1500) / 1000),
        });
        expect((await hostedFiles()).map((f) => f.filename)).toEqual(['Alpha.lua', 'zeta.lua']);
      });

      it('answers exactly the fields the file manager reads (the response schemas strip the rest)', async () => {
        const uploaded = (await upload('keys.lua', 'return 1')).json();
        expect(Object.keys(uploaded).sort()).toEqual(['created', 'file', 'success', 'version']);
        const fileKeys = [
          'accessType',
          'fileSize',
          'filename',
          'id',
          'isPublic',
          'location',
          'storedFilename',
          'uploadedAt',
          'url',
        ];
        expect(Object.keys(uploaded.file).sort()).toEqual(fileKeys);
        expect(Object.keys((await hostedFiles())[0] ?? {}).sort()).toEqual(fileKeys);
        expect(Object.keys((await allFiles())[0] ?? {}).sort()).toEqual(fileKeys);
      });

      it('gives every file a download URL that works, names with spaces included', async () => {
        await upload('my script.lua', 'return "spaced"');
        const record = (await allFiles()).find((f) => f.filename === 'my script.lua');
        expect(record?.url).toBe('/api/hosted-scripts/my%20script.lua');
        const res = await t.app.inject({ method: 'GET', url: record?.url ?? '' });
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe('return "spaced"');
        expect(res.headers['content-disposition']).toBe('attachment; filename="my script.lua"');
      });
    });

    describe('uploading', () => {
      it('keeps a new hosted file public by default at version 1', async () => {
        const res = await upload('new.lua', 'print("new")\n');
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          success: true,
          created: true,
          version: 1,
          file: { filename: 'new.lua', location: 'hosted-scripts', isPublic: true, fileSize: 13 },
        });
        const [audit] = await t.ctx.db
          .selectFrom('audit_logs')
          .selectAll()
          .where('event_type', '=', 'script_uploaded')
          .execute();
        expect(JSON.parse(audit!.details)).toMatchObject({
          filename: 'new.lua',
          directory: 'hosted-scripts',
        });
      });

      it('makes a new version when a hosted file is uploaded again, with the new access', async () => {
        await upload('again.lua', 'return 1');
        const res = await upload('again.lua', 'return 2', { isPublic: 'false' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ created: false, version: 2, file: { isPublic: false } });
        const versions = await t.app.inject({
          method: 'GET',
          url: '/api/admin/scripts/again.lua/versions',
          headers: { cookie: t.cookie },
        });
        expect(versions.json().versions.map((v: { content: string }) => v.content)).toEqual([
          'return 2',
          'return 1',
        ]);
      });

      it('sends a new version of a shipped script to Project Root, not hosted-scripts/', async () => {
        const wrongPlace = await upload(FREE_SCRIPT_FILE, 'print("v2")');
        expect(wrongPlace.statusCode).toBe(409);
        expect(wrongPlace.json()).toEqual({
          error: `${FREE_SCRIPT_FILE} ships with the app: choose Project Root to upload a new version of it`,
        });
        const res = await upload(FREE_SCRIPT_FILE, 'print("v2")', { directory: 'project-root' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ created: false, version: 2, file: { location: 'project' } });
        expect((await download(FREE_SCRIPT_FILE)).body).toBe('print("v2")');
      });

      it('takes only new versions of shipped scripts in Project Root', async () => {
        await upload('hosted.lua', 'return 1');
        for (const name of ['brand-new.lua', 'hosted.lua']) {
          const res = await upload(name, 'return 2', { directory: 'project-root' });
          expect(res.statusCode, name).toBe(400);
          expect(res.json().error).toBe(
            'Project Root only takes new versions of the scripts shipped with the app; upload new files to hosted-scripts/',
          );
        }
        expect(await storedNames()).toEqual([
          'hosted.lua',
          FREE_SCRIPT_FILE,
          PREMIUM_PANEL_FILE,
          PREMIUM_SCRIPT_FILE,
          UNIVERSAL_SCRIPT_FILE,
        ]);
      });

      it('serves back exactly the bytes uploaded: BOM, CRLF, tabs, trailing spaces and non-ASCII kept', async () => {
        const bytes = Buffer.concat([
          BOM,
          Buffer.from('-- héllo wörld ✓  \r\nlocal a = 1\t \r\n\r\nreturn a  \r\n', 'utf8'),
        ]);
        expect((await upload('exact.lua', bytes)).statusCode).toBe(201);
        const res = await download('exact.lua');
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(bytes)).toBe(true);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.headers['content-disposition']).toBe('attachment; filename=exact.lua');
        const record = (await hostedFiles()).find((f) => f.filename === 'exact.lua');
        expect(record?.fileSize).toBe(bytes.length);
      });

      it('takes a file of exactly 1 MiB and refuses a larger one with 413', async () => {
        const atLimit = `--${'x'.repeat(MAX_SCRIPT_BYTES - 2)}`;
        expect((await upload('limit.lua', atLimit)).statusCode).toBe(201);
        const tooBig = await upload('big.lua', `--${'x'.repeat(2 * MAX_SCRIPT_BYTES)}`);
        expect(tooBig.statusCode).toBe(413);
        expect(tooBig.json()).toEqual({ error: 'file must be at most 1 MiB' });
        const justOver = await upload('over.lua', `--${'x'.repeat(MAX_SCRIPT_BYTES - 1)}`);
        expect(justOver.statusCode).toBe(413);
        expect(await storedNames()).not.toContain('big.lua');
        expect(await storedNames()).not.toContain('over.lua');
      });

      it('refuses names that try to leave the folder or are not .lua files', async () => {
        const cases: [string, string][] = [
          ['../x.lua', 'filename must not contain ".."'],
          ['a/b.lua', 'filename must not contain path separators or any of : * ? " < > |'],
          ['a\\b.lua', 'filename must not contain path separators or any of : * ? " < > |'],
          ['/etc/passwd.lua', 'filename must not contain path separators or any of : * ? " < > |'],
          ['', 'filename is required'],
          ['notes.txt', 'only .lua files are accepted'],
          ['.lua', 'filename must not start with a dot'],
          ['tab\there.lua', 'filename must not contain control characters'],
          ['bell\u0007.lua', 'filename must not contain control characters'],
        ];
        for (const [name, error] of cases) {
          const res = await upload(name, 'return 1');
          expect(res.statusCode, JSON.stringify(name)).toBe(400);
          expect(res.json(), JSON.stringify(name)).toEqual({ error });
        }
        expect(await storedNames()).toEqual([
          FREE_SCRIPT_FILE,
          PREMIUM_PANEL_FILE,
          PREMIUM_SCRIPT_FILE,
          UNIVERSAL_SCRIPT_FILE,
        ]);
      });

      it('refuses content that is empty, not UTF-8, holds NUL or is not valid Lua', async () => {
        const cases: [Buffer | string, number, Record<string, unknown>][] = [
          ['', 400, { error: 'file must not be empty' }],
          [Buffer.from([0x70, 0x72, 0xff, 0xfe, 0x0a]), 400, { error: 'file must be UTF-8 text' }],
          [Buffer.from([0xc3, 0x28]), 400, { error: 'file must be UTF-8 text' }],
          ['return 1\u0000', 400, { error: 'file must not contain NUL characters' }],
          [Buffer.concat([BOM, Buffer.from('  \r\n')]), 400, { error: 'file must not be blank' }],
          [
            'local t = {\n  1\n',
            400,
            {
              error: 'Lua syntax error on line 3: unexpected end of file, expected `}` after last field',
              syntaxError: {
                line: 3,
                column: 1,
                message: 'unexpected end of file, expected `}` after last field',
              },
            },
          ],
        ];
        for (const [content, status, body] of cases) {
          const res = await upload('bad.lua', content);
          expect(res.statusCode, JSON.stringify(body)).toBe(status);
          expect(res.json()).toEqual(body);
        }
        expect(await storedNames()).not.toContain('bad.lua');
      });

      it('refuses a malformed upload with a 400 that says what is missing or extra', async () => {
        const file = { name: 'file', filename: 'x.lua', content: 'return 1' };
        const cases: [MultipartPart[], string][] = [
          [[{ name: 'directory', value: 'hosted-scripts' }], 'file is required'],
          [
            [file, { name: 'directory', value: 'elsewhere' }],
            "directory must be 'hosted-scripts' or 'project-root'",
          ],
          [[file, { name: 'isPublic', value: 'yes' }], "isPublic must be 'true' or 'false'"],
          [[file, { name: 'owner', value: 'me' }], "unknown field 'owner'"],
          [[{ ...file, name: 'script' }], "unexpected file field 'script': send the script as 'file'"],
          [[file, { ...file, filename: 'y.lua' }], 'only one file may be uploaded at a time'],
          [
            [file, { name: 'isPublic', value: 'true' }, { name: 'isPublic', value: 'false' }],
            'isPublic was sent twice',
          ],
        ];
        for (const [parts, error] of cases) {
          const res = await uploadParts(parts);
          expect(res.statusCode, error).toBe(400);
          expect(res.json()).toEqual({ error });
        }
        const json = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/upload',
          headers: { cookie: t.cookie },
          payload: { file: 'return 1' },
        });
        expect(json.statusCode).toBe(400);
        expect(json.json()).toEqual({ error: 'the upload must be multipart/form-data with a file field' });
        expect(await storedNames()).toEqual([
          FREE_SCRIPT_FILE,
          PREMIUM_PANEL_FILE,
          PREMIUM_SCRIPT_FILE,
          UNIVERSAL_SCRIPT_FILE,
        ]);
      });

      it('refuses an upload without an admin session', async () => {
        const res = await uploadParts([{ name: 'file', filename: 'x.lua', content: 'return 1' }], null);
        expect(res.statusCode).toBe(401);
        expect(await storedNames()).toEqual([
          FREE_SCRIPT_FILE,
          PREMIUM_PANEL_FILE,
          PREMIUM_SCRIPT_FILE,
          UNIVERSAL_SCRIPT_FILE,
        ]);
      });
    });

    describe('deleting', () => {
      it('deletes a hosted file by id', async () => {
        const id = (await upload('old.lua', 'return 1')).json().file.id;
        const res = await deleteFile(id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, filename: 'old.lua' });
        expect((await download('old.lua')).statusCode).toBe(404);
        expect((await deleteFile(id)).json()).toEqual({ error: SCRIPT_TEXTS.fileNotFound });
      });

      it('never deletes a shipped file', async () => {
        const shipped = (await allFiles()).find((f) => f.filename === UNIVERSAL_SCRIPT_FILE);
        const res = await deleteFile(shipped?.id ?? 0);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'Project files cannot be deleted from the file manager' });
        expect(await storedNames()).toContain(UNIVERSAL_SCRIPT_FILE);
      });

      it('answers 400 for an id that is not a positive whole number', async () => {
        for (const id of ['0', 'abc', '99999999999', '-1']) {
          const res = await deleteFile(id);
          expect(res.statusCode, id).toBe(400);
          expect(res.json().error).toBe('params id: id must be a positive whole number');
        }
      });
    });

    describe('upload names', () => {
      it.each([
        ['U+202E', 'invoice\u202Eaul.lua'],
        ['U+202A', '\u202Aleft.lua'],
        ['U+2066', 'iso\u2066late.lua'],
        ['U+2069', 'iso\u2069late.lua'],
        ['U+200E', 'mark\u200E.lua'],
        ['U+200F', 'mark\u200F.lua'],
        ['U+061C', 'arabic\u061Cmark.lua'],
      ])('refuses a name holding the text-direction control %s', async (codePoint, name) => {
        const res = await upload(name, 'return 1');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: `filename must not contain invisible or text-direction characters (${codePoint})`,
        });
        expect(await storedNames()).toEqual([
          FREE_SCRIPT_FILE,
          PREMIUM_PANEL_FILE,
          PREMIUM_SCRIPT_FILE,
          UNIVERSAL_SCRIPT_FILE,
        ]);
      });

      it('refuses a name mixing Latin with Cyrillic or Greek letters', async () => {
        for (const [name, scripts] of [
          ['p\u0430yload.lua', 'Latin and Cyrillic'], // Cyrillic а
          ['t\u03bfols.lua', 'Latin and Greek'], // Greek ο
        ] as const) {
          const res = await upload(name, 'return 1');
          expect(res.statusCode, name).toBe(400);
          expect(res.json()).toEqual({
            error: `filename must not mix ${scripts} letters, which can look alike`,
          });
        }
      });

      it('refuses a look-alike of an existing script with 409, naming the script it imitates', async () => {
        expect((await upload('cop.lua', 'return 1')).statusCode).toBe(201);
        expect((await upload('modem.lua', 'return 1')).statusCode).toBe(201);
        for (const [name, imitated] of [
          ['\u0441\u043e\u0440.lua', 'cop.lua'], // all Cyrillic: с о р
          ['\uff43\uff4f\uff50.lua', 'cop.lua'], // fullwidth ｃｏｐ
          ['rnodem.lua', 'modem.lua'], // 'rn' reads as 'm'
          ['scan1ine-free.lua', FREE_SCRIPT_FILE], // '1' for 'l'
        ] as const) {
          const res = await upload(name, 'return 2');
          expect(res.statusCode, name).toBe(409);
          expect(res.json()).toEqual({
            error: `${name} looks like the existing script ${imitated}: choose a name that reads differently`,
          });
        }
        // The editor creates scripts too, under the same rule.
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/save',
          headers: { cookie: t.cookie },
          payload: { filename: '\u0441\u043e\u0440.lua', content: 'return 3' },
        });
        expect(saved.statusCode).toBe(409);
        expect(await storedNames()).toEqual(
          [
            'cop.lua',
            'modem.lua',
            FREE_SCRIPT_FILE,
            PREMIUM_PANEL_FILE,
            PREMIUM_SCRIPT_FILE,
            UNIVERSAL_SCRIPT_FILE,
          ].sort(),
        );
      });

      it('takes names in one other script, which look like no existing name', async () => {
        const res = await upload('\u0442\u0435\u0441\u0442.lua', 'return 1'); // тест
        expect(res.statusCode).toBe(201);
        expect(res.json().file.filename).toBe('\u0442\u0435\u0441\u0442.lua');
      });

      it('treats a name differing only in case as the same script: a new version of it', async () => {
        expect((await upload('foo.lua', 'return 1')).statusCode).toBe(201);
        const res = await upload('Foo.LUA', 'return 2', { isPublic: 'false' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          created: false,
          version: 2,
          file: { filename: 'foo.lua', isPublic: false },
        });
        expect((await hostedFiles()).map((f) => f.filename)).toEqual(['foo.lua']);
        const downloaded = await download('FOO.lua', t.cookie);
        expect(downloaded.statusCode).toBe(200);
        expect(downloaded.body).toBe('return 2');
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/save',
          headers: { cookie: t.cookie },
          payload: { filename: 'FOO.lua', content: 'return 3' },
        });
        expect(saved.statusCode).toBe(200);
        expect(saved.json()).toMatchObject({ created: false, script: { name: 'foo.lua', version: 3 } });
      });
    });

    describe('downloading', () => {
      it('hands a public FREE file to anyone', async () => {
        const res = await download(FREE_SCRIPT_FILE);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toBe(`attachment; filename=${FREE_SCRIPT_FILE}`);
        expect(res.headers['cache-control']).toBe('no-cache');
      });

      it('hands a private file only to a signed-in admin, and never lets caches keep it', async () => {
        await upload('private.lua', 'return "secret"', { isPublic: 'false' });
        const anonymous = await download('private.lua');
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toEqual({
          error: 'This file is private: sign in as an administrator or use a valid key',
        });
        expect((await download('private.lua', 'scanline_session=forged')).statusCode).toBe(401);
        const admin = await download('private.lua', t.cookie);
        expect(admin.statusCode).toBe(200);
        expect(admin.body).toBe('return "secret"');
        expect(admin.headers['cache-control']).toBe('private, no-store');
      });

      it('never hands out a PREMIUM script keyless, even when it is public', async () => {
        await t.app.inject({
          method: 'PUT',
          url: `/api/admin/scripts/${UNIVERSAL_SCRIPT_FILE}/access-type`,
          headers: { cookie: t.cookie },
          payload: { accessType: 'PREMIUM' },
        });
        expect((await download(UNIVERSAL_SCRIPT_FILE)).statusCode).toBe(401);
        expect((await download(UNIVERSAL_SCRIPT_FILE, t.cookie)).statusCode).toBe(200);
      });

      it('answers 404 for an unknown file and 400 for a name that is not a script name', async () => {
        const missing = await download('missing.lua');
        expect(missing.statusCode).toBe(404);
        expect(missing.json()).toEqual({ error: 'File not found' });
        for (const name of ['../package.json', 'a/b.lua', 'x.txt']) {
          expect((await download(name)).statusCode, name).toBe(400);
        }
        const traversal = await t.app.inject({
          method: 'GET',
          url: '/api/hosted-scripts/..%2F..%2Fpackage.json',
        });
        expect(traversal.statusCode).toBe(400);
      });
    });
  });
}
