import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqlite } from './index.ts';
import { withStatementCache } from './sqlite-statements.ts';

/*
 * Kysely's SQLite driver prepares every statement it runs; compiling one costs about as much as
 * running a small one (issue 39: 8.9% of the busy time at 1,000 bots). Each SQL text is prepared once.
 */

describe('SQLite statements', () => {
  let sqlite: SQLite.Database;
  afterEach(() => {
    if (sqlite.open) sqlite.close();
  });

  it('prepares a statement once however often the app runs it, whatever its values', async () => {
    sqlite = new SQLite(':memory:');
    const prepare = vi.spyOn(sqlite, 'prepare');
    const { db } = openSqlite(sqlite);
    await sql`create table pool_bots (ghost_id text primary key, last_seen_at integer)`.execute(db);
    prepare.mockClear();
    for (let i = 0; i < 5; i++) {
      await db
        .insertInto('pool_bots')
        .values({ ghost_id: `ghost-${i}`, last_seen_at: i })
        .execute();
      const row = await db
        .selectFrom('pool_bots')
        .select('last_seen_at')
        .where('ghost_id', '=', `ghost-${i}`)
        .executeTakeFirst();
      expect(row).toEqual({ last_seen_at: i });
    }
    expect(prepare).toHaveBeenCalledTimes(2);
    // A transaction's begin and commit are statements too.
    await db
      .transaction()
      .execute((trx) => trx.deleteFrom('pool_bots').where('ghost_id', '=', 'x').execute());
    await db
      .transaction()
      .execute((trx) => trx.deleteFrom('pool_bots').where('ghost_id', '=', 'y').execute());
    expect(prepare).toHaveBeenCalledTimes(5);
    await db.destroy();
  });

  it('keeps at most its bound, dropping the least recently used text', () => {
    sqlite = new SQLite(':memory:');
    const prepare = vi.spyOn(sqlite, 'prepare');
    const cache = withStatementCache(sqlite, 2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1');
    cache.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    // 'select 2' was the least recent: gone; 'select 1' and 'select 3' stay.
    cache.prepare('select 1');
    cache.prepare('select 3');
    expect(prepare).toHaveBeenCalledTimes(3);
    cache.prepare('select 2');
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('sees a table as a migration left it, through a statement prepared before', async () => {
    sqlite = new SQLite(':memory:');
    const { db } = openSqlite(sqlite);
    await sql`create table t (a integer)`.execute(db);
    await sql`insert into t (a) values (1)`.execute(db);
    const all = () => sql`select * from t`.execute(db).then((r) => r.rows);
    expect(await all()).toEqual([{ a: 1 }]);
    await sql`alter table t add column b text default 'x'`.execute(db);
    expect(await all()).toEqual([{ a: 1, b: 'x' }]);
    await db.destroy();
  });
});
