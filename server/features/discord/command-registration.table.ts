/** What was last written to a guild's commands (a hash of the commands and the settings they need). */
export interface DiscordCommandRegistrationsTable {
  application_id: string;
  guild_id: string;
  commands_hash: string;
  registered_at: number;
}
