import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogConfig, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { withStatementCache } from './sqlite-statements.ts';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

// Times are epoch milliseconds in `bigint` columns and counts come back as int8: read both as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface DbHandle {
  db: Db;
  dialect: DialectName;
}

export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

/** PostgreSQL connections per instance when DATABASE_POOL_SIZE is not given (docs/configuration.md). */
export const DEFAULT_POOL_SIZE = 10;

export interface ObservedDbOptions {
  /**
   * Told the SQL of every statement sent, failed ones and transaction control included: how tests
   * count round trips.
   */
  onStatement?: (sql: string) => void;
}

/** Kysely's log option calling `onStatement` for each statement (undefined: no logging at all). */
function statementLog(onStatement: ObservedDbOptions['onStatement']): LogConfig | undefined {
  return onStatement && ((event) => onStatement(event.query.sql));
}

/**
 * Opens the database named by `url`: PostgreSQL for `postgres://…`, otherwise a SQLite file (WAL).
 * `schema` (PostgreSQL only) puts every table in that schema; tests use it to get an empty database each.
 */
export function createDb(
  url: string,
  options: ObservedDbOptions & {
    schema?: string;
    /** PostgreSQL connections this instance opens at most (DATABASE_POOL_SIZE). */
    poolSize?: number;
    /** Shown in pg_stat_activity (default 'scanline'): which connections are this server's. */
    applicationName?: string;
    /** Told when a connection breaks (a restart, failover, pg_terminate_backend); the pool reconnects. */
    onConnectionError?: (error: Error) => void;
  } = {},
): DbHandle {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      application_name: options.applicationName ?? 'scanline',
      // A database that does not answer fails the request (503) rather than holding it for ever.
      connectionTimeoutMillis: 5000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // Without listeners, a connection the server ends (idle in the pool, or checked out between two
    // queries) emits an 'error' nobody handles and kills the process. The pool drops that client and
    // opens a new one for the next query; the query that was running fails and its caller answers 503.
    const onError =
      options.onConnectionError ??
      ((error: Error) => console.warn(`database connection lost: ${error.message}`));
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', () => {}));
    const log = statementLog(options.onStatement);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) }),
      dialect: 'postgres',
    };
  }
  if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
  return openSqlite(new SQLite(url), options);
}

/**
 * Wraps an open SQLite database with the app's settings. Tests open one from a migrated image
 * (`new SQLite(buffer)`), which is how they start from a template instead of migrating each time.
 */
export function openSqlite(sqlite: SQLite.Database, options: ObservedDbOptions = {}): DbHandle {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const log = statementLog(options.onStatement);
  const dialect = new SqliteDialect({ database: withStatementCache(sqlite) });
  return { db: new Kysely<Database>({ dialect, ...(log ? { log } : {}) }), dialect: 'sqlite' };
}
