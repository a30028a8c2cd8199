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
