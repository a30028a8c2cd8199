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
