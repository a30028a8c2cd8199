import type { Db } from '../../db/index.ts';
import type { ScriptKeyRow } from '../script-keys/script-keys.store.ts';

/** Who holds the key, if anyone. */
export async function findLinkOfKey(
  db: Db,
  scriptKeyId: number,
): Promise<{ discordUserId: string } | undefined> {
  const row = await db
    .selectFrom('discord_links')
    .select('discord_user_id')
    .where('script_key_id', '=', scriptKeyId)
    .executeTakeFirst();
  return row && { discordUserId: row.discord_user_id };
}

/**
 * Links the key to the user unless another user holds it (the unique script_key_id is the guard, so
 * two users claiming one key at once cannot both win). Returns the user who holds it afterwards.
 */
export async function linkKeyToUser(
  db: Db,
  link: { scriptKeyId: number; discordUserId: string; guildId: string | null },
  now: number,
): Promise<string> {
  await db
    .insertInto('discord_links')
    .values({
      script_key_id: link.scriptKeyId,
      discord_user_id: link.discordUserId,
      guild_id: link.guildId,
      linked_at: now,
    })
    .onConflict((oc) => oc.column('script_key_id').doNothing())
    .execute();
  const holder = await findLinkOfKey(db, link.scriptKeyId);
  return holder?.discordUserId ?? link.discordUserId;
}

/** The user's keys, the latest to run out first (a key that never runs out before all). */
export async function listKeysOfUser(db: Db, discordUserId: string): Promise<ScriptKeyRow[]> {
  const rows = await db
    .selectFrom('discord_links')
    .innerJoin('script_keys', 'script_keys.id', 'discord_links.script_key_id')
    .selectAll('script_keys')
    .where('discord_links.discord_user_id', '=', discordUserId)
    .orderBy('discord_links.linked_at', 'desc')
    .orderBy('script_keys.id', 'desc')
    .execute();
  const runsOut = (row: ScriptKeyRow) =>
    row.expires_at === null ? Number.POSITIVE_INFINITY : Number(row.expires_at);
  return rows.sort((a, b) => runsOut(b) - runsOut(a));
}

/** The key types that earn the premium role. */
const PREMIUM_ROLE_TYPES = ['PREMIUM', 'VIP', 'premium_24h'] as const;

/**
 * Discord users linked to an active, unexpired key of a premium type at `now` (of `discordUserId`
 * only, when given): who should hold the premium role.
 */
export async function listPremiumHolders(db: Db, now: number, discordUserId?: string): Promise<string[]> {
  let query = db
    .selectFrom('discord_links')
    .innerJoin('script_keys', 'script_keys.id', 'discord_links.script_key_id')
    .select('discord_links.discord_user_id')
    .distinct()
    .where('script_keys.is_active', '=', 1)
    .where('script_keys.script_type', 'in', [...PREMIUM_ROLE_TYPES])
    .where((eb) => eb.or([eb('script_keys.expires_at', 'is', null), eb('script_keys.expires_at', '>', now)]));
  if (discordUserId !== undefined) query = query.where('discord_links.discord_user_id', '=', discordUserId);
  return (await query.execute()).map((row) => row.discord_user_id);
}
