import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DiscordRoleGrantsTable, RoleGrantState } from './role-sync.table.ts';

/*
 * The premium role grants' queries. Every change of state is conditional (on the state read, and on
 * the claim of whoever calls Discord), so two instances, or the sweep and a link's immediate add,
 * never make the same change twice.
 */

export type RoleGrantRow = Selectable<DiscordRoleGrantsTable>;

/** What the screen shows of a grant. */
export interface RoleGrant {
  discordUserId: string;
  guildId: string;
  roleId: string;
  state: RoleGrantState;
  /** The change a pending or failed grant is making. */
  action: 'add' | 'remove';
  attempts: number;
  lastError: string | null;
  /** When a failed change is tried again (ISO 8601), null unless failed. */
  retryAt: string | null;
  updatedAt: string;
}

export function roleGrantRowToRoleGrant(row: RoleGrantRow): RoleGrant {
  return {
    discordUserId: row.discord_user_id,
    guildId: row.guild_id,
    roleId: row.role_id,
    state: row.state,
    action: row.action,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    retryAt: row.state === 'failed' ? new Date(Number(row.next_attempt_at)).toISOString() : null,
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

/** Grants, newest change first; of some users only when `userIds` is given. */
export async function listRoleGrants(db: Db, userIds?: string[]): Promise<RoleGrantRow[]> {
  let query = db
    .selectFrom('discord_role_grants')
    .selectAll()
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc');
  if (userIds) {
    if (userIds.length === 0) return [];
    query = query.where('discord_user_id', 'in', userIds);
  }
  return query.execute();
}

/** Grants that hold (or are being given) a role, and every grant of the current guild and role. */
export async function listLiveRoleGrants(db: Db, guildId: string, roleId: string): Promise<RoleGrantRow[]> {
  return db
    .selectFrom('discord_role_grants')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('state', '!=', 'removed'),
        eb.and([eb('guild_id', '=', guildId), eb('role_id', '=', roleId)]),
      ]),
    )
    .execute();
}

export async function findRoleGrant(db: Db, userId: string, guildId: string, roleId: string) {
  return db
    .selectFrom('discord_role_grants')
    .selectAll()
    .where('discord_user_id', '=', userId)
    .where('guild_id', '=', guildId)
    .where('role_id', '=', roleId)
    .executeTakeFirst();
}

/** The user should hold the role: a new grant, or one being (or already) removed asked to add again. */
export async function wantRoleGrant(db: Db, userId: string, guildId: string, roleId: string, now: number) {
  await db
    .insertInto('discord_role_grants')
    .values({
      discord_user_id: userId,
      guild_id: guildId,
      role_id: roleId,
      state: 'pending_add',
      action: 'add',
      attempts: 0,
      last_error: null,
      next_attempt_at: now,
      claimed_until: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['discord_user_id', 'guild_id', 'role_id']).doNothing())
    .execute();
  await db
    .updateTable('discord_role_grants')
    .set({
      state: 'pending_add',
      action: 'add',
      attempts: 0,
      last_error: null,
      next_attempt_at: now,
      updated_at: now,
    })
    .where('discord_user_id', '=', userId)
    .where('guild_id', '=', guildId)
    .where('role_id', '=', roleId)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['removed', 'pending_remove']),
        eb.and([eb('state', '=', 'failed'), eb('action', '=', 'remove')]),
      ]),
    )
    .execute();
}

/**
 * The user should no longer hold the role (as read at `row`): an add never sent is dropped, anything
 * else becomes a removal. False when the row changed since it was read.
 */
export async function unwantRoleGrant(db: Db, row: RoleGrantRow, now: number): Promise<boolean> {
  const neverSent = row.state === 'pending_add' && Number(row.claimed_until) === 0;
  const res = await db
    .updateTable('discord_role_grants')
    .set(
      neverSent
        ? { state: 'removed', action: 'remove', attempts: 0, last_error: null, updated_at: now }
        : {
            state: 'pending_remove',
            action: 'remove',
            attempts: 0,
            last_error: null,
            next_attempt_at: now,
            updated_at: now,
          },
    )
    .where('id', '=', row.id)
    .where('state', '=', row.state)
    .where('updated_at', '=', row.updated_at)
    .where('claimed_until', '=', row.claimed_until)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Grants with a change due, oldest due first. */
export async function listDueRoleGrants(db: Db, now: number, limit: number): Promise<RoleGrantRow[]> {
  return db
    .selectFrom('discord_role_grants')
    .selectAll()
    .where('state', 'in', ['pending_add', 'pending_remove', 'failed'])
    .where('next_attempt_at', '<=', now)
    .where('claimed_until', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/** Takes the grant's due change for its caller until `until`; the row as claimed, or null (someone else's). */
export async function claimRoleGrant(
  db: Db,
  id: number,
  now: number,
  until: number,
): Promise<RoleGrantRow | null> {
  const res = await db
    .updateTable('discord_role_grants')
    .set({ claimed_until: until })
    .where('id', '=', id)
    .where('state', 'in', ['pending_add', 'pending_remove', 'failed'])
    .where('next_attempt_at', '<=', now)
    .where('claimed_until', '<=', now)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  const row = await db.selectFrom('discord_role_grants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && Number(row.claimed_until) === until ? row : null;
}

/**
 * Writes the outcome of a claimed change, unless the grant was asked otherwise meanwhile (then only
 * the claim is let go, and the new change is made next). `claimedUntil` 0 frees the row.
 */
export async function finishRoleGrant(
  db: Db,
  claimed: RoleGrantRow,
  outcome: { state: RoleGrantState; attempts: number; last_error: string | null; next_attempt_at?: number },
  now: number,
): Promise<void> {
  const res = await db
    .updateTable('discord_role_grants')
    .set({ ...outcome, claimed_until: 0, updated_at: now })
    .where('id', '=', claimed.id)
    .where('claimed_until', '=', claimed.claimed_until)
    .where('state', '=', claimed.state)
    .where('action', '=', claimed.action)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) > 0) return;
  await db
    .updateTable('discord_role_grants')
    .set({ claimed_until: 0 })
    .where('id', '=', claimed.id)
    .where('claimed_until', '=', claimed.claimed_until)
    .execute();
}
