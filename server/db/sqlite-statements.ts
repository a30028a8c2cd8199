import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared: the app issues a few hundred; the bound is for generated texts. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite database as Kysely's driver sees it, preparing each SQL text once. Kysely's driver calls
 * `prepare` for every query, and compiling a statement costs about as much as running a small one
 * (bench/pool-claims.ts measures it). Prepared statements are kept least recently used first, at
 * most `size`, so texts built with a varying number of values cannot grow it without bound.
 *
 * Reusing a statement is safe here: the driver runs one query at a time on its one connection, and
 * SQLite prepares a statement again by itself when the schema changes under it (a migration).
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const prepared = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const cached = prepared.get(sql);
      if (cached) {
        // Map keeps insertion order: moving the hit to the end makes the first key the least recent.
        prepared.delete(sql);
        prepared.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      prepared.set(sql, statement);
      if (prepared.size > size) prepared.delete(prepared.keys().next().value as string);
      return statement;
    },
  };
}
