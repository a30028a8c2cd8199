import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { FREE_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import { countLines, PREMIUM_SCRIPT_FILE, UNIVERSAL_SCRIPT_FILE } from '../../../common/scripts.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../test/helper.ts';
import { loaderStatus, scriptOf } from '../loader/script-access.fixtures.ts';
import {
  RELEASE_UPDATE_NOTES,
  SHIPPED_NOTES,
  seedProjectScripts,
  shippedAccessType,
} from './project-scripts.ts';

const shippedSource = (name: string) =>
  readFileSync(new URL(`../../../scripts/${name}`, import.meta.url), 'utf8');

describe('the scripts shipped in scripts/', () => {
  for (const name of [FREE_SCRIPT_FILE, UNIVERSAL_SCRIPT_FILE, PREMIUM_SCRIPT_FILE]) {
    it(`${name} is valid Lua of readable length`, () => {
      const source = shippedSource(name);
      expect(findLuaSyntaxError(source)).toBeNull();
      // Short enough for a buyer to read whole before running it (the live-feed and refusal handling
      // of issue 19 took premium to about 240 lines).
      expect(countLines(source)).toBeLessThanOrEqual(250);
      // An access marker line may come first; then the header comment.
      expect(source.replace(/^-- scanline:access [A-Z]+\n/, '').startsWith(`--[[\n  Scanline`)).toBe(true);
    });
  }

  it('marks the premium scanner PREMIUM and leaves the others FREE', () => {
    expect(shippedAccessType(shippedSource(PREMIUM_SCRIPT_FILE))).toBe('PREMIUM');
    expect(shippedAccessType(shippedSource(FREE_SCRIPT_FILE))).toBe('FREE');
    expect(shippedAccessType(shippedSource(UNIVERSAL_SCRIPT_FILE))).toBe('FREE');
  });

  it('reads the access marker only from the first lines', () => {
    expect(shippedAccessType('-- scanline:access PREMIUM\r\nreturn 1')).toBe('PREMIUM');
    expect(shippedAccessType('\uFEFF--scanline:access   PREMIUM\nreturn 1')).toBe('PREMIUM');
    expect(shippedAccessType('-- one\n-- two\n-- three\n-- four\n-- scanline:access PREMIUM\n')).toBe(
      'PREMIUM',
    );
    expect(shippedAccessType('\n\n\n\n\n-- scanline:access PREMIUM\n')).toBe('FREE');
    expect(shippedAccessType('-- scanline:access VIP\n')).toBe('FREE');
    expect(shippedAccessType('print("-- scanline:access PREMIUM")\n')).toBe('FREE');
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: seeding shipped scripts`, () => {
    let dir: string;
    let t: TestApp | undefined;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'scanline-scripts-'));
    });
    afterEach(async () => {
      await t?.close();
      t = undefined;
      rmSync(dir, { recursive: true, force: true });
      vi.restoreAllMocks();
    });

    const ship = (name: string, content: string | Buffer) => writeFileSync(join(dir, name), content);
    const start = async () => {
      t = await buildTestApp(dialect, { SCRIPTS_DIR: dir });
      return t;
    };
    const versionsOf = async (app: TestApp, filename: string) =>
      app.ctx.db
        .selectFrom('script_versions')
        .innerJoin('scripts', 'scripts.id', 'script_versions.script_id')
        .select(['script_versions.version', 'script_versions.notes', 'script_versions.content'])
        .where('scripts.filename', '=', filename)
        .orderBy('script_versions.version', 'desc')
        .execute();

    it('stores each valid shipped .lua file as a public FREE project script at version 1', async () => {
      ship('one.lua', 'return 1\n');
      ship('two.lua', '\uFEFFreturn 2\r\n');
      ship('readme.txt', 'not a script');
      const app = await start();
      const rows = await app.ctx.db.selectFrom('scripts').selectAll().orderBy('filename').execute();
      expect(
        rows.map((r) => [r.filename, r.location, r.access_type, r.is_public, r.current_version]),
      ).toEqual([
        ['one.lua', 'project', 'FREE', 1, 1],
        ['two.lua', 'project', 'FREE', 1, 1],
      ]);
      expect(rows[1]?.content).toBe('\uFEFFreturn 2\r\n');
      expect(await versionsOf(app, 'one.lua')).toEqual([
        { version: 1, notes: SHIPPED_NOTES, content: 'return 1\n' },
      ]);
    });

    it('seeds a script marked `-- scanline:access PREMIUM` as PREMIUM, and the marker only on first seeding', async () => {
      ship('paid.lua', '-- scanline:access PREMIUM\nreturn "paid"\n');
      const app = await start();
      const accessOf = async () =>
        (
          await app.ctx.db
            .selectFrom('scripts')
            .select('access_type')
            .where('filename', '=', 'paid.lua')
            .executeTakeFirstOrThrow()
        ).access_type;
      expect(await accessOf()).toBe('PREMIUM');
      const keyless = await app.app.inject({ method: 'GET', url: '/api/script/loader?script=paid.lua' });
      expect(loaderStatus(keyless)).toBe(401);
      // The admin makes it FREE; a release update keeps the admin's choice.
      await app.app.inject({
        method: 'PUT',
        url: '/api/admin/scripts/paid.lua/access-type',
        headers: { cookie: await app.adminCookie() },
        payload: { accessType: 'FREE' },
      });
      ship('paid.lua', '-- scanline:access PREMIUM\nreturn "paid v2"\n');
      expect((await seedProjectScripts(app.ctx)).updated).toEqual(['paid.lua']);
      expect(await accessOf()).toBe('FREE');
    });

    it('serves the new release at once, even when the loader had the old one in memory', async () => {
      ship('one.lua', 'return 1\n');
      const app = await start();
      const load = () => app.app.inject({ method: 'GET', url: '/api/script/loader?script=one.lua' });
      expect(scriptOf(await load())).toBe('return 1\n');
      ship('one.lua', 'return 2\n');
      await seedProjectScripts(app.ctx);
      expect(scriptOf(await load())).toBe('return 2\n');
    });

    it('leaves out, and warns about, shipped files it could not serve', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      ship('good.lua', 'return 1');
      ship('broken.lua', 'return (');
      ship('latin1.lua', Buffer.from([0x2d, 0x2d, 0xe9, 0x0a]));
      const app = await start();
      expect(
        (await app.ctx.db.selectFrom('scripts').select('filename').execute()).map((r) => r.filename),
      ).toEqual(['good.lua']);
      expect(warn.mock.calls.map((c) => c[0])).toEqual([
        'Shipped script broken.lua was not loaded: Lua syntax error on line 1: unexpected token `(`, expected an expression after `(`',
        'Shipped script latin1.lua was not loaded: file must be UTF-8 text',
      ]);
    });

    it('changes nothing when the same files are seeded again, even by several instances at once', async () => {
      ship('one.lua', 'return 1\n');
      const app = await start();
      const again = await seedProjectScripts(app.ctx);
      expect(again).toEqual({ added: [], updated: [], skipped: [] });
      await Promise.all([
        seedProjectScripts(app.ctx),
        seedProjectScripts(app.ctx),
        seedProjectScripts(app.ctx),
      ]);
      expect(await versionsOf(app, 'one.lua')).toHaveLength(1);
    });

    it('adds a release version when a shipped file changes, keeping the admin edits in the history', async () => {
      ship('one.lua', 'return 1\n');
      const app = await start();
      const save = await app.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie: await app.adminCookie() },
        payload: { filename: 'one.lua', content: 'return "admin"\n', notes: 'my edit' },
      });
      expect(save.statusCode).toBe(200);
      ship('one.lua', 'return 2\n');
      app.clock.advance(1000);
      // A new release starts several instances at once: the new version lands once.
      const reports = await Promise.all([seedProjectScripts(app.ctx), seedProjectScripts(app.ctx)]);
      expect(reports.flatMap((r) => r.updated)).toEqual(['one.lua']);
      expect(await versionsOf(app, 'one.lua')).toEqual([
        { version: 3, notes: RELEASE_UPDATE_NOTES, content: 'return 2\n' },
        { version: 2, notes: 'my edit', content: 'return "admin"\n' },
        { version: 1, notes: SHIPPED_NOTES, content: 'return 1\n' },
      ]);
      await seedProjectScripts(app.ctx);
      expect(await versionsOf(app, 'one.lua')).toHaveLength(3);
    });

    it('leaves a hosted file alone when a release ships a script of the same name', async () => {
      ship('one.lua', 'return 1\n');
      const app = await start();
      const cookie = await app.adminCookie();
      await app.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie },
        payload: { filename: 'mine.lua', content: 'return "mine"' },
      });
      ship('mine.lua', 'return "shipped"');
      expect(await seedProjectScripts(app.ctx)).toEqual({ added: [], updated: [], skipped: [] });
      const row = await app.ctx.db
        .selectFrom('scripts')
        .selectAll()
        .where('filename', '=', 'mine.lua')
        .executeTakeFirstOrThrow();
      expect([row.location, row.content]).toEqual(['hosted-scripts', 'return "mine"']);
    });
  });
}
