/*
 * The shapes the Discord REST side works with (the settings' own shape is discord-settings.ts's).
 */

export type { DiscordSettings } from './discord-settings.ts';

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
export type { DiscordCommandDefinition as DiscordCommand } from './commands.ts';
