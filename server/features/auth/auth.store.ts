import type { Db } from '../../db/index.ts';

export async function findAdminSecretHash(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('admin_credentials')
    .select('secret_hash')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.secret_hash;
}

/** Inserts the hash unless another instance already did; returns whether this call stored it. */
export async function insertAdminSecretHash(db: Db, secretHash: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('admin_credentials')
    .values({ id: 1, secret_hash: secretHash, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertSession(
  db: Db,
  session: {
    id: string;
    createdAt: number;
    expiresAt: number;
    ipAddress: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db
    .insertInto('admin_sessions')
    .values({
      id: session.id,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
      ip_address: session.ipAddress,
      user_agent: session.userAgent,
    })
    .execute();
}

export async function findLiveSession(db: Db, id: string, now: number) {
  return db
    .selectFrom('admin_sessions')
    .select(['id', 'expires_at'])
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('admin_sessions').where('id', '=', id).execute();
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('admin_sessions').where('expires_at', '<=', now).execute();
}
