import type { Generated } from 'kysely';

/** System Configuration → Discord, one row (id 1); null: not set here. */
export interface DiscordSettingsTable {
  id: number;
  application_id: string | null;
  /** 64 hex characters, lower-case. */
  public_key: string | null;
  /** Never shown whole, never logged. */
  bot_token: string | null;
  guild_id: string | null;
  premium_role_id: string | null;
  admin_role_id: string | null;
  updated_at: number;
}

/** A script key held by a Discord user (linked by /redeem or /whitelist); one user per key. */
export interface DiscordLinksTable {
  id: Generated<number>;
  script_key_id: number;
  /** The user's snowflake id. */
  discord_user_id: string;
  guild_id: string | null;
  linked_at: number;
}
