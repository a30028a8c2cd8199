import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../db/index.ts';
import { migrations } from '../../db/migrations/index.ts';
import { newScriptNameProblem, scriptNameKey, scriptNameSkeleton } from './script-names.ts';

describe('script names', () => {
  it('gives every spelling of a name one key: case and canonical forms aside', () => {
    expect(scriptNameKey('Foo.LUA')).toBe(scriptNameKey('foo.lua'));
    expect(scriptNameKey('Caf\u00e9.lua')).toBe(scriptNameKey('cafe\u0301.lua'));
    expect(scriptNameKey('cop.lua')).not.toBe(scriptNameKey('\u0441\u043e\u0440.lua'));
  });

  it('gives names that read alike one skeleton, and names that read differently different ones', () => {
    const skeleton = scriptNameSkeleton('cop.lua');
    // Capitals, Cyrillic, fullwidth, Greek, mathematical bold.
    for (const alike of [
      'COP.lua',
      '\u0441\u043e\u0440.lua',
      '\uff43\uff4f\uff50.lua',
      '\u03f2\u03bf\u0440.lua',
      '\u{1d41c}\u{1d428}\u{1d429}.lua',
    ]) {
      expect(scriptNameSkeleton(alike), alike).toBe(skeleton);
    }
    expect(scriptNameSkeleton('cup.lua')).not.toBe(skeleton);
    expect(scriptNameSkeleton('\u0442\u0435\u0441\u0442.lua')).not.toBe(scriptNameSkeleton('test.lua'));
  });

  it('leaves plain names, non-Latin ones and the Latin .lua ending alone', () => {
    for (const name of [
      'scanline-free.lua',
      'My Script v2.lua',
      '\u0442\u0435\u0441\u0442.lua',
      '\u811a\u672c.lua',
    ]) {
      expect(newScriptNameProblem(name), name).toBeNull();
    }
  });

  it('refuses zero-width characters too: they make two names differ invisibly', () => {
    expect(newScriptNameProblem('foo\u200b.lua')).toBe(
      'filename must not contain invisible or text-direction characters (U+200B)',
    );
  });
});

describe('the name-keys migration on a database that already holds look-alike names', () => {
  const { db } = createDb(':memory:');
  afterEach(async () => {
    await db.destroy();
  });

  it('keys the oldest of each look-alike group and leaves the others findable by their exact name', async () => {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('2026_11_23_000000_audit_logs_client')).error).toBeUndefined();
    const row = (filename: string) => ({
      filename,
      location: 'hosted-scripts',
      is_public: 1,
      current_version: 1,
      content: 'return 1',
      size: 8,
      line_count: 1,
      created_at: 0,
      updated_at: 0,
    });
    await (db as any)
      .insertInto('scripts')
      .values(['foo.lua', 'Foo.lua', 'cop.lua', '\u0441\u043e\u0440.lua', 'bar.lua'].map(row))
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const keyed = await db
      .selectFrom('scripts')
      .select(['filename', 'name_key', 'name_skeleton'])
      .orderBy('id')
      .execute();
    expect(keyed).toEqual([
      { filename: 'foo.lua', name_key: 'foo.lua', name_skeleton: 'foo.lua' },
      { filename: 'Foo.lua', name_key: null, name_skeleton: null },
      { filename: 'cop.lua', name_key: 'cop.lua', name_skeleton: 'cop.lua' },
      { filename: '\u0441\u043e\u0440.lua', name_key: null, name_skeleton: null },
      { filename: 'bar.lua', name_key: 'bar.lua', name_skeleton: 'bar.lua' },
    ]);
  });
});
