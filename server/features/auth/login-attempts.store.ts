import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Db } from '../../db/index.ts';

/** A reserved attempt: the client's count in its window, this attempt included. */
export interface ReservedAttempt {
  attempts: number;
  windowStartedAt: number;
}

type AttemptsRow = ExpressionBuilder<Database, 'admin_login_attempts'>;

/**
 * Counts one login attempt for each of `clients` (distinct) unless `limit` are counted in its window
 * already, in one statement (an upsert whose update is conditional), so concurrent attempts are
 * counted one after another on both dialects and the limit+1th is refused. A window ends `windowMs`
 * after it began; a client with nothing counted (an expired window, or only attempts given back)
 * starts a new one now. Returns the clients counted; one missing was refused.
 */
export async function reserveLoginAttempts(
  db: Db,
  clients: readonly string[],
  now: number,
  limit: number,
  windowMs: number,
): Promise<Map<string, ReservedAttempt>> {
  const restarts = (eb: AttemptsRow) =>
    eb.or([
      eb('admin_login_attempts.window_started_at', '<=', now - windowMs),
      eb('admin_login_attempts.attempts', '<=', 0),
    ]);
  const rows = await db
    .insertInto('admin_login_attempts')
    .values(clients.map((client) => ({ client, window_started_at: now, attempts: 1 })))
    .onConflict((oc) =>
      oc
        .column('client')
        .doUpdateSet((eb) => ({
          attempts: eb
            .case()
            .when(restarts(eb))
            .then(1)
            .else(eb('admin_login_attempts.attempts', '+', 1))
            .end(),
          window_started_at: eb
            .case()
            .when(restarts(eb))
            .then(now)
            .else(eb.ref('admin_login_attempts.window_started_at'))
            .end(),
        }))
        .where((eb) => eb.or([restarts(eb), eb('admin_login_attempts.attempts', '<', limit)])),
    )
    .returning(['client', 'attempts', 'window_started_at'])
    .execute();
  return new Map(
    rows.map((row) => [
      row.client,
      { attempts: Number(row.attempts), windowStartedAt: Number(row.window_started_at) },
    ]),
  );
}

/** Gives back an attempt that was not a failure (the right secret), if its window still runs. */
export async function releaseLoginAttempt(db: Db, client: string, attempt: ReservedAttempt): Promise<void> {
  await db
    .updateTable('admin_login_attempts')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('client', '=', client)
    .where('window_started_at', '=', attempt.windowStartedAt)
    .where('attempts', '>', 0)
    .execute();
}

/** Deletes the rows of windows that began before `before`; returns how many. */
export async function deleteLoginAttemptsBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('admin_login_attempts')
    .where('window_started_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
