import { type RawBuilder, sql } from 'kysely';
import type { Db, DialectName } from '../../db/index.ts';

/** The audit event every refused request writes. */
export const RATE_LIMIT_HIT = 'rate_limit_hit';

/**
 * A string field of the JSON `details` text column. Written with literals, not parameters, so the
 * same expression in SELECT and GROUP BY is the same text (PostgreSQL compares them as written).
 */
function detailsField(dialect: DialectName, field: 'identifier' | 'limitType'): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`(details::json ->> ${sql.lit(field)})`
    : sql<string | null>`json_extract(details, ${sql.lit(`$.${field}`)})`;
}

/**
 * How many calls a rate_limit_hit row stands for: its `details.count` (one row per caller and
 * window, see PendingWrites.rateLimitHit), or 1 for rows written without one (the failed-login
 * lockout writes a row per refusal).
 */
function refusals(dialect: DialectName): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`coalesce((details::json ->> 'count')::bigint, 1)`
    : sql<number>`coalesce(json_extract(details, '$.count'), 1)`;
}

/** Calls refused since `since`: the refusals the rate_limit_hit rows stand for, added up. */
export async function countRefusedCalls(db: Db, dialect: DialectName, since: number): Promise<number> {
  const row = await db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(refusals(dialect)), sql<number>`0`).as('n'))
    .where('event_type', '=', RATE_LIMIT_HIT)
    .where('timestamp', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The identifiers refused most since `since`, with their limit type and refusal count, most first.
 * The identifier is the one the limit counted (details.identifier: the IP, IPv6 /64, or key);
 * rows written without one (the failed-login lockout) fall back to their key or IP column.
 */
export async function findTopLimitedIdentifiers(
  db: Db,
  dialect: DialectName,
  since: number,
  limit: number,
): Promise<{ identifier: string; limitType: string; count: number }[]> {
  const identifier = sql<string>`coalesce(${detailsField(dialect, 'identifier')}, license_key, ip_address, '')`;
  const limitType = sql<string>`coalesce(${detailsField(dialect, 'limitType')}, '')`;
  const rows = await db
    .selectFrom('audit_logs')
    .select((eb) => [
      identifier.as('identifier'),
      limitType.as('limit_type'),
      eb.fn.sum<number>(refusals(dialect)).as('n'),
    ])
    .where('event_type', '=', RATE_LIMIT_HIT)
    .where('timestamp', '>=', since)
    .groupBy([identifier, limitType])
    .orderBy('n', 'desc')
    .orderBy('identifier')
    .orderBy('limit_type')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ identifier: row.identifier, limitType: row.limit_type, count: Number(row.n) }));
}
