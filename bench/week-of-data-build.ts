/*
 * The week-of-data benchmark's databases (bench/week-of-data.ts): made new, and filled with a week of a
 * fleet's data in SQL, fast and not through the app: a recursive CTE on SQLite, generate_series on
 * PostgreSQL. The stream is what bots make: each bot a
 * hop every 5 s and a find every 10 s, spread evenly, `seq` in time order (e = 0, 1, 2…: two hops,
 * then a find, of bot (e / 3) mod bots), with text of realistic lengths (hex ids like job ids).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RawBuilder, sql } from 'kysely';
import type { Db, DialectName } from '../server/db/index.ts';
import { createFreshDatabase, type FreshDatabase } from '../tests/operations/fresh-database.ts';

export interface WeekSize {
  bots: number;
  days: number;
  /** The span ends here (epoch ms). */
  end: number;
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;
/** Rows a statement: progress shows, and no statement grows a huge transaction. */
const CHUNK = 1_000_000;

export function countsOf(size: WeekSize): { hops: number; finds: number; events: number } {
  // Per bot and 10 s: two hops and a find.
  const triples = Math.floor((size.days * DAY) / (10 * SECOND)) * size.bots;
  return { hops: 2 * triples, finds: triples, events: 3 * triples };
}

/** Inserts the hops and finds of `size`; `progress` is told after each statement. */
export async function buildWeek(
  db: Db,
  dialect: DialectName,
  size: WeekSize,
  progress: (text: string) => void,
): Promise<void> {
  const { hops, finds, events } = countsOf(size);
  const stream: Stream = {
    dialect,
    start: size.end - size.days * DAY,
    span: size.days * DAY,
    events,
    bots: size.bots,
  };
  for (let from = 0; from < hops; from += CHUNK) {
    await rowsOf(dialect, from, Math.min(hops, from + CHUNK), (i) => {
      // Hop i is event 3 (i / 2) + i mod 2.
      const e = sql`(3 * (${i} / 2) + ${i} % 2)`;
      return hopInsert(stream, e);
    }).execute(db);
    progress(`hops ${Math.min(hops, from + CHUNK).toLocaleString('en')} / ${hops.toLocaleString('en')}`);
  }
  for (let from = 0; from < finds; from += CHUNK) {
    await rowsOf(dialect, from, Math.min(finds, from + CHUNK), (i) => {
      const e = sql`(3 * ${i} + 2)`;
      return findInsert(stream, e);
    }).execute(db);
    progress(`finds ${Math.min(finds, from + CHUNK).toLocaleString('en')} / ${finds.toLocaleString('en')}`);
  }
}

/** `insert` (an INSERT … SELECT over rows numbered i) for i in [from, to). */
function rowsOf(
  dialect: DialectName,
  from: number,
  to: number,
  insert: (i: RawBuilder<unknown>) => { columns: RawBuilder<unknown>; select: RawBuilder<unknown> },
): RawBuilder<unknown> {
  const i = sql`i`;
  const { columns, select } = insert(i);
  if (dialect === 'postgres')
    return sql`${columns} ${select} FROM generate_series(${sql.lit(from)}::bigint, ${sql.lit(to - 1)}::bigint) AS g(i)`;
  return sql`WITH RECURSIVE n(i) AS (SELECT ${sql.lit(from)} UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(to - 1)})
    ${columns} ${select} FROM n`;
}

/** 32 hex digits: an event or job id's length. */
const hexId = (dialect: DialectName, e: RawBuilder<unknown>, salt: string) =>
  dialect === 'postgres' ? sql`md5(${sql.lit(salt)} || ${e})` : sql`lower(hex(randomblob(16)))`;

const timeOf = (e: RawBuilder<unknown>, start: number, span: number, events: number) =>
  sql`(${sql.lit(start)} + ${e} * ${sql.lit(span)} / ${sql.lit(events)})`;

const botOf = (e: RawBuilder<unknown>, bots: number) => sql`('ghost-' || ((${e} / 3) % ${sql.lit(bots)}))`;

/** The event stream: `events` events spread evenly over `span` ms from `start`, among `bots` bots. */
interface Stream {
  dialect: DialectName;
  start: number;
  span: number;
  events: number;
  bots: number;
}

function hopInsert({ dialect, start, span, events, bots }: Stream, e: RawBuilder<unknown>) {
  // About one hop in 13 fails (the server is full); the rest hop for their reasons, mostly auto_scan.
  const failed = sql`(${e} % 13 = 0)`;
  const reason = sql`CASE WHEN ${failed} THEN 'server_full' WHEN ${e} % 11 = 0 THEN 'error_recovery'
    WHEN ${e} % 7 = 0 THEN 'performance' WHEN ${e} % 17 = 0 THEN 'manual' ELSE 'auto_scan' END`;
  return {
    columns: sql`INSERT INTO fleet_hops (seq, event_id, bot_id, from_job_id, to_job_id, from_place_id,
      to_place_id, success, latency_ms, error_message, hop_reason, attempt_number,
      total_servers_attempted, created_at)`,
    select: sql`SELECT ${e} + 1, ${hexId(dialect, e, 'h')}, ${botOf(e, bots)}, ${hexId(dialect, e, 'f')},
      ${hexId(dialect, e, 't')}, '109983668079237', '109983668079237',
      CASE WHEN ${failed} THEN 0 ELSE 1 END, 150 + (${e} * 7919) % 1200,
      CASE WHEN ${failed} THEN 'Server is full' ELSE NULL END, ${reason}, 1, 1,
      ${timeOf(e, start, span, events)}`,
  };
}

function findInsert({ dialect, start, span, events, bots }: Stream, e: RawBuilder<unknown>) {
  const name = sql`CASE ${e} % 4 WHEN 0 THEN 'Los Tralaleritos' WHEN 1 THEN 'La Vacca Saturno Saturnita'
    WHEN 2 THEN 'Graipuss Medussi' ELSE 'Chimpanzini Spiderini' END`;
  return {
    columns: sql`INSERT INTO fleet_discoveries (seq, event_id, bot_id, name, type, value, numeric_value,
      count, placeid, jobid, created_at)`,
    select: sql`SELECT ${e} + 1, ${hexId(dialect, e, 'd')}, ${botOf(e, bots)}, ${name}, 'Secret', '$6M/s',
      6000000, 1, '109983668079237', ${hexId(dialect, e, 'j')}, ${timeOf(e, start, span, events)}`,
  };
}

/** Writes what the database holds in memory and in its log to its files, and syncs them. */
export async function writeToDisk(db: Db, dialect: DialectName): Promise<void> {
  // A TRUNCATE checkpoint copies the WAL into the file and fsyncs it (the build's pages with it).
  if (dialect === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  else await sql`CHECKPOINT`.execute(db);
}

/** What the database takes on disk (the figure the issue gives: 2.1 GB for a week). */
export async function sizeOnDisk(db: Db, dialect: DialectName): Promise<number> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ n: number }>`SELECT pg_database_size(current_database()) AS n`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const { rows } = await sql<{
    n: number;
  }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A new SQLite file in a temporary folder, or a new database on the PostgreSQL server of `pgUrl`. */
export async function newDatabase(
  dialect: DialectName,
  name: string,
  pgUrl: string | undefined,
): Promise<FreshDatabase> {
  if (dialect === 'postgres') return createFreshDatabase(pgUrl!, `bench_${name}`);
  const dir = mkdtempSync(join(tmpdir(), 'scanline-week-'));
  return { url: join(dir, `${name}.db`), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}
