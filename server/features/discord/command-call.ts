import type { DiscordSettings } from './discord-settings.ts';
import type { Interaction } from './interaction.schema.ts';

/** One slash command as the handlers get it: who ran it, where, and with what. */
export interface CommandCall {
  interaction: Interaction;
  /** The Discord user who ran the command (member.user in a guild, user in a direct message). */
  userId: string;
  guildId: string | null;
  settings: DiscordSettings;
  /** The site's origin for loader snippets (PUBLIC_URL, else the address Discord called). */
  origin: string;
  /** The caller's address for audit rows (Discord's). */
  ip: string;
}
