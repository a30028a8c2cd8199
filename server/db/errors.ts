/** The database error code of `error`, whichever driver threw it. */
function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** A unique index refused the row (SQLite and PostgreSQL name it differently). */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL gave up a transaction that raced another (serialization failure or deadlock). */
export function isSerializationFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code === '40001' || code === '40P01';
}

/** PostgreSQL SQLSTATEs and driver codes that mean the database, not the statement, is the problem. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: pg_terminate_backend, a restart
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
]);

/** What pg says when a connection broke without a code of its own. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection ended|Client was closed/i;

/**
 * The database could not be reached or gave up the connection (a restart, failover, network loss,
 * a locked or full SQLite file): worth retrying later, and never the fault of the row being written.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    // SQLite's extended codes: SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, …
    const base = /^(SQLITE_[A-Z]+?)_[A-Z_]+$/.exec(code)?.[1];
    if (base && UNAVAILABLE_CODES.has(base)) return true;
  }
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}
