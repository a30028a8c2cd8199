import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { DiscordRest } from './discord-rest.ts';
import type { DiscordCommand, DiscordSettings } from './discord-rest-types.ts';
import { explainDiscordError } from './discord-rest-words.ts';

/*
 * The slash commands in the guild: written with one bulk overwrite
 * (PUT /applications/{app}/guilds/{guild}/commands) when the settings are saved, and on start only
 * when the commands or the settings changed since the last write (a hash per application and guild),
 * so restarts do not touch Discord and a new version's commands appear at once.
 */

export type CommandRegistration =
  | { status: 'registered'; count: number }
  | { status: 'unchanged' }
  /** Application id, bot token or guild id not set: nothing to register. */
  | { status: 'not_configured' }
  /** Discord refused (or did not answer): `error` says why in the operator's words. */
  | { status: 'failed'; error: string };

/** What the registration depends on: the commands, and the token (a reset token may be another bot's). */
export function commandsHash(settings: DiscordSettings, commands: DiscordCommand[]): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        commands,
        token: createHash('sha256')
          .update(settings.botToken ?? '')
          .digest('hex'),
      }),
    )
    .digest('hex');
}

/**
 * Overwrites the guild's commands with `commands` unless the same were written last (`force`: write
 * anyway, as saving the settings does, which also repairs commands deleted by hand in Discord).
 */
export async function registerGuildCommands(
  deps: { db: Db; rest: DiscordRest; now: () => number },
  settings: DiscordSettings,
  commands: DiscordCommand[],
  options: { force?: boolean } = {},
): Promise<CommandRegistration> {
  const { applicationId, guildId, botToken } = settings;
  if (!applicationId || !guildId || !botToken) return { status: 'not_configured' };
  const hash = commandsHash(settings, commands);
  const last = await deps.db
    .selectFrom('discord_command_registrations')
    .select('commands_hash')
    .where('application_id', '=', applicationId)
    .where('guild_id', '=', guildId)
    .executeTakeFirst();
  if (!options.force && last?.commands_hash === hash) return { status: 'unchanged' };
  let written: unknown[];
  try {
    written = await deps.rest.overwriteGuildCommands(applicationId, guildId, commands);
  } catch (error) {
    return { status: 'failed', error: explainDiscordError(error) };
  }
  const now = deps.now();
  await deps.db
    .insertInto('discord_command_registrations')
    .values({ application_id: applicationId, guild_id: guildId, commands_hash: hash, registered_at: now })
    .onConflict((oc) =>
      oc.columns(['application_id', 'guild_id']).doUpdateSet({ commands_hash: hash, registered_at: now }),
    )
    .execute();
  return { status: 'registered', count: Array.isArray(written) ? written.length : commands.length };
}
