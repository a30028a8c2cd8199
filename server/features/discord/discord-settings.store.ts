import type { DiscordSettingField } from '../../../common/discord.ts';
import type { Db } from '../../db/index.ts';

/** The settings live in one row. */
const SETTINGS_ID = 1;

/** What System Configuration → Discord stored (null: not set here). */
export type StoredDiscordSettings = Record<DiscordSettingField, string | null>;

const NOTHING_STORED: StoredDiscordSettings = {
  applicationId: null,
  publicKey: null,
  botToken: null,
  guildId: null,
  premiumRoleId: null,
  adminRoleId: null,
};

export async function findDiscordSettings(db: Db): Promise<StoredDiscordSettings> {
  const row = await db
    .selectFrom('discord_settings')
    .selectAll()
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
  if (!row) return NOTHING_STORED;
  return {
    applicationId: row.application_id,
    publicKey: row.public_key,
    botToken: row.bot_token,
    guildId: row.guild_id,
    premiumRoleId: row.premium_role_id,
    adminRoleId: row.admin_role_id,
  };
}

/** Writes the whole row (the service merges a change into what is stored first). */
export async function saveDiscordSettings(
  db: Db,
  settings: StoredDiscordSettings,
  now: number,
): Promise<void> {
  const values = {
    application_id: settings.applicationId,
    public_key: settings.publicKey,
    bot_token: settings.botToken,
    guild_id: settings.guildId,
    premium_role_id: settings.premiumRoleId,
    admin_role_id: settings.adminRoleId,
    updated_at: now,
  };
  await db
    .insertInto('discord_settings')
    .values({ id: SETTINGS_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}
