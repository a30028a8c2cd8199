import { type Expression, type SqlBool, sql } from 'kysely';

/** How many rows meet `condition` (0 for none), so one pass can count several conditions. */
export function countWhere(condition: Expression<SqlBool>) {
  return sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
}
