import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { TestApp } from '../../server/test/helper.ts';

/**
 * Tables a refused call may legitimately write: `audit_logs` holds the audit trail of refusals
 * (failed logins, rate_limit_hit rows — the app's rate-limit records are audit rows too, its
 * counters live in memory), `payment_webhook_rejections` counts forged webhook posts into their
 * audit row, and `admin_login_attempts` counts a wrong admin secret against its address (the
 * lockout). Every other table must be exactly as it was after a 4xx.
 */
export const TABLES_A_REFUSAL_MAY_WRITE = new Set([
  'audit_logs',
  'payment_webhook_rejections',
  'admin_login_attempts',
]);

/** Row count and a hash of the rows, per table. */
export type Fingerprint = Map<string, { rows: number; hash: string }>;

function normalise(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `hex:${value.toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return Number.isInteger(value) ? value : Number(value.toPrecision(12));
  return value;
}

function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, normalise(row[k])]),
  );
}

/** The tables of this app's database (its own PostgreSQL schema only), without the migrator's. */
export async function listTables(t: TestApp): Promise<string[]> {
  const tables = await t.ctx.db.introspection.getTables();
  return tables
    .filter((table) => (t.schema ? table.schema === t.schema : true))
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_') && !TABLES_A_REFUSAL_MAY_WRITE.has(name))
    .sort();
}

export async function fingerprint(t: TestApp, tables: string[]): Promise<Fingerprint> {
  const out: Fingerprint = new Map();
  await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(
        t.ctx.db,
      );
      const texts = rows.map(rowText).sort();
      out.set(table, { rows: rows.length, hash: createHash('sha1').update(texts.join('\n')).digest('hex') });
    }),
  );
  return out;
}

/** The tables whose rows differ, as `table: N -> M rows` (or `rows changed`). */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const changed: string[] = [];
  for (const [table, was] of before) {
    const now = after.get(table);
    if (!now || now.hash !== was.hash) {
      changed.push(
        now && now.rows !== was.rows ? `${table}: ${was.rows} -> ${now.rows} rows` : `${table}: rows changed`,
      );
    }
  }
  return changed;
}

/**
 * Writes whatever the app has queued (the fleet's and the audit's batched writers, and any other
 * decorated writer with a `flush()`), so a fingerprint sees every row an answered call will write.
 */
export async function flushQueuedWrites(app: FastifyInstance): Promise<void> {
  const seen = new Set<unknown>();
  for (const key of Object.keys(app)) {
    let value: unknown;
    try {
      value = (app as unknown as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    const flush = (value as { flush?: unknown }).flush;
    if (typeof flush === 'function') {
      try {
        await (flush as () => Promise<void>).call(value);
      } catch {
        // a writer that cannot write now (a poisoned row): the fingerprint shows what it kept
      }
    }
  }
}
