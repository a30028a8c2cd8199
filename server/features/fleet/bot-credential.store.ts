import { sql } from 'kysely';
import type { EnrolledBot } from '../../../common/bot-enrollment.ts';
import type { Db, DialectName } from '../../db/index.ts';
import type { BotCredentialsTable } from './bot-credential.table.ts';

/** The live credential a token's hash names: its bot and when it was last seen. */
export interface LiveCredential {
  ghostId: string;
  lastSeenAt: number | null;
}

export async function findLiveCredentialByHash(db: Db, tokenHash: string): Promise<LiveCredential | null> {
  const row = await db
    .selectFrom('bot_credentials')
    .select(['ghost_id', 'last_seen_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { ghostId: row.ghost_id, lastSeenAt: row.last_seen_at } : null;
}

/** Whether `ghostId` holds a credential, or held one that was revoked (null: never enrolled). */
export async function findCredentialState(db: Db, ghostId: string): Promise<'live' | 'revoked' | null> {
  const row = await db
    .selectFrom('bot_credentials')
    .select('revoked_at')
    .where('ghost_id', '=', ghostId)
    .executeTakeFirst();
  if (!row) return null;
  return row.revoked_at === null ? 'live' : 'revoked';
}

export async function countLiveCredentials(db: Db): Promise<number> {
  const row = await db
    .selectFrom('bot_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listLiveCredentialIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('bot_credentials')
    .select('ghost_id')
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((r) => r.ghost_id);
}

function enrolledBotOf(row: BotCredentialsTable): EnrolledBot {
  const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
  return {
    ghostId: row.ghost_id,
    enrolledAt: new Date(Number(row.enrolled_at)).toISOString(),
    enrolledAddress: row.enrolled_ip,
    lastSeenAt: iso(row.last_seen_at),
    lastAddress: row.last_ip,
  };
}

/** The enrolled bots, by id. */
export async function listEnrolledBots(db: Db): Promise<EnrolledBot[]> {
  const rows = await db
    .selectFrom('bot_credentials')
    .selectAll()
    .where('revoked_at', 'is', null)
    .orderBy('ghost_id')
    .execute();
  return rows.map(enrolledBotOf);
}

/**
 * Serialises enrollments within the transaction (PostgreSQL: an advisory lock, so simultaneous
 * enrollments on any instance count one after another; SQLite runs one write transaction at a time).
 */
export async function lockEnrollments(trx: Db, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext('bot_credentials'))`.execute(trx);
}

/** A new credential for an id never enrolled. */
export async function insertCredential(
  db: Db,
  values: { ghostId: string; tokenHash: string; at: number; ip: string | null },
): Promise<void> {
  await db
    .insertInto('bot_credentials')
    .values({
      ghost_id: values.ghostId,
      token_hash: values.tokenHash,
      enrolled_at: values.at,
      enrolled_ip: values.ip,
      last_seen_at: null,
      last_ip: null,
      revoked_at: null,
    })
    .execute();
}

/**
 * Replaces the credential of `ghostId`: a revoked one (`current` null), or the live one whose hash is
 * `current` (the bot enrolling again with it). False when it is in neither state any more.
 */
export async function replaceCredential(
  db: Db,
  values: { ghostId: string; tokenHash: string; at: number; ip: string | null; current: string | null },
): Promise<boolean> {
  let query = db
    .updateTable('bot_credentials')
    .set({
      token_hash: values.tokenHash,
      enrolled_at: values.at,
      enrolled_ip: values.ip,
      last_seen_at: null,
      last_ip: null,
      revoked_at: null,
    })
    .where('ghost_id', '=', values.ghostId);
  query =
    values.current === null
      ? query.where('revoked_at', 'is not', null)
      : query.where('token_hash', '=', values.current).where('revoked_at', 'is', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the live credential of `ghostId`; false when it has none. */
export async function revokeCredential(db: Db, ghostId: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('bot_credentials')
    .set({ revoked_at: at })
    .where('ghost_id', '=', ghostId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a use of the credential (when and from where). */
export async function touchCredential(
  db: Db,
  tokenHash: string,
  at: number,
  ip: string | null,
): Promise<void> {
  await db
    .updateTable('bot_credentials')
    .set({ last_seen_at: at, last_ip: ip })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}
