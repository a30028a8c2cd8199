/*
 * The shapes the Discord REST side works with. DiscordSettings is the contract with the settings
 * (discord-settings.ts exports the same interface once merged; this one then re-exports it).
 */

/** Discord's settings as System Configuration and the environment give them (null: not set). */
export interface DiscordSettings {
  applicationId: string | null;
  publicKey: string | null;
  botToken: string | null;
  guildId: string | null;
  premiumRoleId: string | null;
  adminRoleId: string | null;
  /** Discord's REST base, https://discord.com/api/v10 unless DISCORD_API_URL says otherwise. */
  apiUrl: string;
}

/** GET /applications/@me, the fields read. */
export interface DiscordApplication {
  id: string;
  name: string;
  /** The bot user of the application (its id is the bot's member id in a guild). */
  bot?: { id: string; username: string };
}

/** GET /guilds/{guild}, the fields read. */
export interface DiscordGuild {
  id: string;
  name: string;
  owner_id: string;
}

/** A guild role (GET /guilds/{guild}/roles). `permissions` is a decimal bit set as text. */
export interface DiscordRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  /** Held by an integration (a bot's own role, a booster role): nobody can give it by hand. */
  managed: boolean;
}

/** A guild member (GET /guilds/{guild}/members/{user}), the fields read. */
export interface DiscordMember {
  user?: { id: string; username: string };
  roles: string[];
}

/** An application command as the bulk overwrite takes it (name, description, options…). */
export interface DiscordCommand {
  name: string;
  description: string;
  [field: string]: unknown;
}
