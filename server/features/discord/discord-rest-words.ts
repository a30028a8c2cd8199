import { DiscordNotSentError, DiscordRestError } from './discord-rest.ts';

/*
 * Discord's refusals in the operator's words, for the check, the command registration and the role
 * grants on the screen: what is wrong and where in Discord to fix it.
 */

export const TOKEN_WRONG =
  'The bot token is wrong: Discord refused it (401). Copy it again from the Developer Portal → your application → Bot → Reset Token.';
export const BOT_NOT_IN_GUILD =
  'The bot is not in the server: invite it with the bot and applications.commands scopes and the Manage Roles permission (Developer Portal → OAuth2 → URL Generator).';
export const LACKS_MANAGE_ROLES =
  'The bot lacks the Manage Roles permission: give its role Manage Roles in Server Settings → Roles.';

/** One error of a REST call, said for the operator (and short enough for a grant's last error). */
export function explainDiscordError(error: unknown): string {
  if (error instanceof DiscordNotSentError) {
    if (error.status === 401) return TOKEN_WRONG;
    if (error.status === 429)
      return `Discord asked to wait (rate limit): tried again later. ${error.message}`;
    return error.message;
  }
  if (error instanceof DiscordRestError) {
    if (error.status === 401) return TOKEN_WRONG;
    if (error.code === 50001 || error.code === 10004) return BOT_NOT_IN_GUILD;
    if (error.code === 50013) {
      return 'Missing Permissions (50013): the bot lacks Manage Roles, or the role is not below the bot’s highest role (Server Settings → Roles: drag the bot’s role above it).';
    }
    if (error.code === 10007) return 'Unknown Member (10007): the user is not in the server.';
    if (error.code === 10011) return 'Unknown Role (10011): the premium role does not exist in the server.';
    if (error.status === 429) return 'Discord kept answering 429 (rate limited): tried again later.';
    return `Discord answered ${error.status}: ${error.message}`.slice(0, 300);
  }
  const text = error instanceof Error ? error.message : String(error);
  return `Discord did not answer: ${text}`.slice(0, 300);
}
