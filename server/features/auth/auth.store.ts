import type { Db } from '../../db/index.ts';

/** The stored admin secret: its scrypt hash and, for a secret generated since it exists, its check value. */
export async function findAdminCredentials(
  db: Db,
): Promise<{ secretHash: string; secretCheck: string | null } | undefined> {
  const row = await db
    .selectFrom('admin_credentials')
    .select(['secret_hash', 'secret_check'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row && { secretHash: row.secret_hash, secretCheck: row.secret_check };
}

/** Inserts the hash unless another instance already did; returns whether this call stored it. */
export async function insertAdminSecretHash(
  db: Db,
  secretHash: string,
  now: number,
  secretCheck: string | null = null,
): Promise<boolean> {
  const result = await db
    .insertInto('admin_credentials')
    .values({ id: 1, secret_hash: secretHash, secret_check: secretCheck, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Stores the check value of a secret stored before check values existed (the admin's first sign-in since). */
export async function setAdminSecretCheck(db: Db, secretHash: string, secretCheck: string): Promise<void> {
  await db
    .updateTable('admin_credentials')
    .set({ secret_check: secretCheck })
    .where('id', '=', 1)
    .where('secret_hash', '=', secretHash)
    .where('secret_check', 'is', null)
    .execute();
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
