import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import {
  countLines,
  MAX_SCRIPT_BYTES,
  PREMIUM_PANEL_FILE,
  PREMIUM_SCRIPT_FILE,
  SCRIPT_TEXTS,
  type ScriptSummary,
  type ScriptVersion,
  UNIVERSAL_SCRIPT_FILE,
} from '../../../common/scripts.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';

/** Admin calls of script management, signed in as the suite's admin. */
function scriptCalls(t: TestAppSuite) {
  const headers = () => ({ cookie: t.cookie });
  return {
    list: async (): Promise<ScriptSummary[]> =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/scripts', headers: headers() })).json().scripts,
    get: (name: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/admin/scripts/${encodeURIComponent(name)}`,
        headers: headers(),
      }),
    versions: (name: string, query = '') =>
      t.app.inject({
        method: 'GET',
        url: `/api/admin/scripts/${encodeURIComponent(name)}/versions${query}`,
        headers: headers(),
      }),
    save: (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/admin/scripts/save', headers: headers(), payload }),
    remove: (name: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/scripts/${encodeURIComponent(name)}`,
        headers: headers(),
      }),
    setAccess: (name: string, accessType: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/scripts/${encodeURIComponent(name)}/access-type`,
        headers: headers(),
        payload: { accessType },
      }),
    auditRows: (eventType: string) =>
      t.ctx.db.selectFrom('audit_logs').selectAll().where('event_type', '=', eventType).execute(),
  };
}

const shipped = (name: string) => readFileSync(new URL(`../../../scripts/${name}`, import.meta.url), 'utf8');

for (const dialect of DIALECTS) {
  describe(`${dialect}: script management`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const calls = scriptCalls(t);

    it('lists the scripts shipped with the app, by name, with their size, lines and version', async () => {
      const scripts = await calls.list();
      expect(scripts.map((s) => s.name)).toEqual([
        FREE_SCRIPT_FILE,
        PREMIUM_PANEL_FILE,
        PREMIUM_SCRIPT_FILE,
        UNIVERSAL_SCRIPT_FILE,
      ]);
      const universal = shipped(UNIVERSAL_SCRIPT_FILE);
      expect(scripts[3]).toEqual({
        name: UNIVERSAL_SCRIPT_FILE,
        accessType: 'FREE',
        location: 'project',
        isPublic: true,
        size: Buffer.byteLength(universal),
        lines: countLines(universal),
        version: 1,
        lastModified: new Date(t.clock.now()).toISOString(),
      });
      const res = await calls.get(UNIVERSAL_SCRIPT_FILE);
      expect(res.statusCode).toBe(200);
      expect(res.json().script.content).toBe(universal);
    });

    it('creates a new script as a public FREE hosted file at version 1 and lists it by name', async () => {
      const res = await calls.save({
        filename: 'Alpha.lua',
        content: '-- Alpha.lua\nprint("hi")\n',
        notes: ' first ',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        created: true,
        script: {
          name: 'Alpha.lua',
          accessType: 'FREE',
          location: 'hosted-scripts',
          isPublic: true,
          version: 1,
          lines: 3,
        },
        version: { version: 1, notes: 'first', content: '-- Alpha.lua\nprint("hi")\n' },
      });
      expect((await calls.list()).map((s) => s.name)).toEqual([
        'Alpha.lua',
        FREE_SCRIPT_FILE,
        PREMIUM_PANEL_FILE,
        PREMIUM_SCRIPT_FILE,
        UNIVERSAL_SCRIPT_FILE,
      ]);
      expect((await calls.get('Alpha.lua')).json().script.content).toBe('-- Alpha.lua\nprint("hi")\n');
      const [audit] = await calls.auditRows('script_saved');
      expect(JSON.parse(audit!.details)).toMatchObject({ filename: 'Alpha.lua', version: 1, created: true });
    });

    it('answers exactly the fields the screen reads (the response schemas strip the rest)', async () => {
      const saved = (await calls.save({ filename: 'Keys.lua', content: 'print(1)\n' })).json();
      expect(Object.keys(saved).sort()).toEqual(['created', 'script', 'success', 'version']);
      expect(Object.keys(saved.version).sort()).toEqual(['content', 'createdAt', 'id', 'notes', 'version']);
      const { script } = (await calls.get('Keys.lua')).json();
      expect(Object.keys(script).sort()).toEqual([
        'accessType',
        'content',
        'isPublic',
        'lastModified',
        'lines',
        'location',
        'name',
        'size',
        'version',
      ]);
    });

    it('keeps every version with its notes and content, newest first', async () => {
      for (const [i, notes] of ['one', 'two', 'three'].entries()) {
        t.clock.advance(60_000);
        const res = await calls.save({ filename: 'multi.lua', content: `return ${i + 1}\n`, notes });
        expect(res.statusCode).toBe(i === 0 ? 201 : 200);
      }
      const versions: ScriptVersion[] = (await calls.versions('multi.lua')).json().versions;
      expect(versions.map((v) => [v.version, v.notes, v.content])).toEqual([
        [3, 'three', 'return 3\n'],
        [2, 'two', 'return 2\n'],
        [1, 'one', 'return 1\n'],
      ]);
      expect(new Date(versions[0]!.createdAt).getTime() - new Date(versions[2]!.createdAt).getTime()).toBe(
        120_000,
      );
      const script = (await calls.get('multi.lua')).json().script;
      expect(script).toMatchObject({ version: 3, content: 'return 3\n' });
    });

    it('answers only the newest versions when asked for a limit, and refuses a bad one', async () => {
      for (const n of [1, 2, 3]) await calls.save({ filename: 'limited.lua', content: `return ${n}\n` });
      const newest = await calls.versions('limited.lua', '?limit=2');
      expect((newest.json().versions as ScriptVersion[]).map((v) => v.version)).toEqual([3, 2]);
      for (const limit of ['0', 'abc', '1001']) {
        const res = await calls.versions('limited.lua', `?limit=${limit}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(/^querystring limit: /);
      }
    });

    it('lets the admin save a new version of a shipped script, which stays a project script', async () => {
      const res = await calls.save({
        filename: FREE_SCRIPT_FILE,
        content: 'print("patched")\n',
        baseVersion: 1,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().script).toMatchObject({ location: 'project', version: 2 });
      expect((await calls.versions(FREE_SCRIPT_FILE)).json().versions[1].notes).toBe('Shipped with the app');
    });

    it('refuses a save built on a stale version with 409, writes nothing and audits the conflict', async () => {
      await calls.save({ filename: 's.lua', content: 'return 1' });
      await calls.save({ filename: 's.lua', content: 'return 2', baseVersion: 1 });
      const stale = await calls.save({ filename: 's.lua', content: 'return "mine"', baseVersion: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ error: `${SCRIPT_TEXTS.versionConflict} (now version 2)` });
      expect((await calls.get('s.lua')).json().script).toMatchObject({ version: 2, content: 'return 2' });
      expect((await calls.versions('s.lua')).json().versions).toHaveLength(2);
      const conflicts = await calls.auditRows('transaction_conflict');
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]?.success).toBe(0);
      expect(JSON.parse(conflicts[0]!.details)).toMatchObject({ filename: 's.lua', currentVersion: 2 });
    });

    it('lets exactly one of ten simultaneous saves from the same version win; the rest get 409', async () => {
      await calls.save({ filename: 'race.lua', content: 'return 0' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          calls.save({ filename: 'race.lua', content: `return ${i + 1}`, baseVersion: 1 }),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(409)]);
      const winner = results.find((r) => r.statusCode === 200)?.json().version.content;
      const versions: ScriptVersion[] = (await calls.versions('race.lua')).json().versions;
      expect(versions.map((v) => v.version)).toEqual([2, 1]);
      expect(versions[0]!.content).toBe(winner);
      expect((await calls.get('race.lua')).json().script.content).toBe(winner);
      expect(await calls.auditRows('transaction_conflict')).toHaveLength(9);
    });

    it('refuses Lua that does not parse with the line number, and writes nothing', async () => {
      await calls.save({ filename: 'ok.lua', content: 'return 1\n' });
      const res = await calls.save({ filename: 'ok.lua', content: 'local a = 1\nlocal b = = 2\n' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'Lua syntax error on line 2: unexpected token `=`, expected an expression',
        syntaxError: { line: 2, column: 9, message: 'unexpected token `=`, expected an expression' },
      });
      expect((await calls.get('ok.lua')).json().script).toMatchObject({ version: 1, content: 'return 1\n' });
      const created = await calls.save({ filename: 'new.lua', content: 'x = = 1' });
      expect(created.statusCode).toBe(400);
      expect(created.json().error).toMatch(/^Lua syntax error on line 1: /);
      expect((await calls.get('new.lua')).statusCode).toBe(404);
    });

    it('refuses bad save payloads with a 400 naming the field', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ filename: '../x.lua', content: 'return 1' }, /^filename: /],
        [{ filename: 'x.txt', content: 'return 1' }, /^filename: only \.lua files are accepted$/],
        [{ filename: 'x.lua', content: '   ' }, /^content: content must not be blank$/],
        [{ filename: 'x.lua', content: 'return 1', notes: 'n'.repeat(501) }, /^notes: /],
        [{ filename: 'x.lua', content: 'return 1', baseVersion: -1 }, /^baseVersion: /],
        [{ filename: 'x.lua' }, /^content: /],
        [
          { filename: 'x.lua', content: `-- ${'x'.repeat(MAX_SCRIPT_BYTES)}` },
          /^content: content must be at most 1 MiB$/,
        ],
      ];
      for (const [payload, error] of cases) {
        const res = await calls.save(payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(res.json().error).toMatch(error);
      }
      expect((await calls.list()).map((s) => s.name)).toEqual([
        FREE_SCRIPT_FILE,
        PREMIUM_PANEL_FILE,
        PREMIUM_SCRIPT_FILE,
        UNIVERSAL_SCRIPT_FILE,
      ]);
    });

    it('takes a 1 MiB script whose JSON body is twice that size', async () => {
      // Every quote is escaped in JSON, so the body is about 2 MiB for 1 MiB of Lua.
      const content = `return [[${'"'.repeat(MAX_SCRIPT_BYTES - 12)}]]\n`;
      expect(Buffer.byteLength(content)).toBeLessThanOrEqual(MAX_SCRIPT_BYTES);
      const res = await calls.save({ filename: 'big.lua', content });
      expect(res.statusCode).toBe(201);
      expect(res.json().script.size).toBe(Buffer.byteLength(content));
    });

    it('answers 404 for an unknown script and 400 for a name that is not a script name', async () => {
      for (const res of [await calls.get('missing.lua'), await calls.versions('missing.lua')]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: SCRIPT_TEXTS.notFound });
      }
      for (const name of ['a/b.lua', '../scripts/x.lua', 'notes.txt', 'a\\b.lua']) {
        const res = await calls.get(name);
        expect(res.statusCode, name).toBe(400);
        expect(res.json().error, name).toMatch(/^params filename: /);
      }
    });

    it('deploys the current version of a script', async () => {
      await calls.save({ filename: 'd.lua', content: 'return 1' });
      await calls.save({ filename: 'd.lua', content: 'return 2' });
      const deploy = (filename: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts/deploy',
          headers: { cookie: t.cookie },
          payload: { filename },
        });
      const res = await deploy('d.lua');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, filename: 'd.lua', version: 2 });
      expect((await deploy('nope.lua')).statusCode).toBe(404);
      expect((await deploy('nope')).statusCode).toBe(400);
    });

    it('switches a script between FREE and PREMIUM', async () => {
      const res = await calls.setAccess(UNIVERSAL_SCRIPT_FILE, 'PREMIUM');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        script: { name: UNIVERSAL_SCRIPT_FILE, accessType: 'PREMIUM' },
      });
      expect((await calls.list()).find((s) => s.name === UNIVERSAL_SCRIPT_FILE)?.accessType).toBe('PREMIUM');
      const [audit] = await calls.auditRows('script_access_changed');
      expect(JSON.parse(audit!.details)).toEqual({
        filename: UNIVERSAL_SCRIPT_FILE,
        from: 'FREE',
        to: 'PREMIUM',
      });
      const bad = await calls.setAccess(UNIVERSAL_SCRIPT_FILE, 'VIP');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('accessType: accessType must be FREE or PREMIUM');
      expect((await calls.setAccess('missing.lua', 'FREE')).statusCode).toBe(404);
    });

    it('deletes a hosted script with all its versions', async () => {
      await calls.save({ filename: 'gone.lua', content: 'return 1' });
      await calls.save({ filename: 'gone.lua', content: 'return 2' });
      const res = await calls.remove('gone.lua');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, filename: 'gone.lua' });
      expect((await calls.get('gone.lua')).statusCode).toBe(404);
      const versionCount = await t.ctx.db.selectFrom('script_versions').select('script_id').execute();
      expect(versionCount).toHaveLength(4); // the four shipped scripts' first versions only
      expect(await calls.auditRows('script_deleted')).toHaveLength(1);
      expect((await calls.remove('gone.lua')).json()).toEqual({ error: SCRIPT_TEXTS.notFound });
    });

    it('never deletes a shipped script', async () => {
      const res = await calls.remove(UNIVERSAL_SCRIPT_FILE);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: SCRIPT_TEXTS.projectScriptDelete });
      expect((await calls.get(UNIVERSAL_SCRIPT_FILE)).statusCode).toBe(200);
    });

    it('refuses every script call without an admin session', async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/scripts'],
        ['GET', `/api/admin/scripts/${FREE_SCRIPT_FILE}`],
        ['GET', `/api/admin/scripts/${FREE_SCRIPT_FILE}/versions`],
        ['POST', '/api/admin/scripts/save'],
        ['POST', '/api/admin/scripts/deploy'],
        ['DELETE', `/api/admin/scripts/${FREE_SCRIPT_FILE}`],
        ['PUT', `/api/admin/scripts/${FREE_SCRIPT_FILE}/access-type`],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          payload: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
      expect((await calls.get(FREE_SCRIPT_FILE)).json().script.version).toBe(1);
    });
  });

  describe(`${dialect}: the last script`, () => {
    // No shipped scripts here, so the admin's own scripts are all there is.
    const t = useTestApp(dialect, { signIn: true, env: { SCRIPTS_DIR: '/nonexistent/scanline-scripts' } });
    const calls = scriptCalls(t);

    it('starts with no scripts when the scripts directory is missing', async () => {
      expect(await calls.list()).toEqual([]);
    });

    it('cannot be deleted', async () => {
      await calls.save({ filename: 'a.lua', content: 'return 1' });
      await calls.save({ filename: 'b.lua', content: 'return 2' });
      expect((await calls.remove('a.lua')).statusCode).toBe(200);
      const last = await calls.remove('b.lua');
      expect(last.statusCode).toBe(409);
      expect(last.json()).toEqual({ error: SCRIPT_TEXTS.lastScript });
      const id = (await t.ctx.db.selectFrom('scripts').select('id').executeTakeFirstOrThrow()).id;
      const fromFileManager = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/hosted-scripts/${id}`,
        headers: { cookie: t.cookie },
      });
      expect(fromFileManager.statusCode).toBe(409);
      expect((await calls.list()).map((s) => s.name)).toEqual(['b.lua']);
    });

    it('survives two deletes of the last two scripts at the same moment', async () => {
      await calls.save({ filename: 'a.lua', content: 'return 1' });
      await calls.save({ filename: 'b.lua', content: 'return 2' });
      const results = await Promise.all([calls.remove('a.lua'), calls.remove('b.lua')]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await calls.list()).toHaveLength(1);
    });
  });
}
