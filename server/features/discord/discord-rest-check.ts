import type { DiscordRest } from './discord-rest.ts';
import { DiscordRestError } from './discord-rest.ts';
import type { DiscordRole, DiscordSettings } from './discord-rest-types.ts';
import { BOT_NOT_IN_GUILD, explainDiscordError, LACKS_MANAGE_ROLES } from './discord-rest-words.ts';

/*
 * The "check" of System Configuration → Discord: reads the application and the guild with the bot
 * token and says, in the operator's words, what stands between the settings and a working desk
 * (a missing setting, a wrong token, the bot not in the server, no Manage Roles, a premium role the
 * bot cannot give). Discord's rule: a bot gives only roles strictly below its own highest role.
 */

const ADMINISTRATOR = 1n << 3n;
const MANAGE_ROLES = 1n << 28n;

export interface DiscordCheck {
  /** Nothing missing: commands can be registered and the premium role given. */
  ok: boolean;
  application: { id: string; name: string } | null;
  guild: { id: string; name: string } | null;
  /** Each missing piece, one sentence each (empty when ok). */
  problems: string[];
}

/** A role's place in the order Discord ranks them: position, then the older (smaller) id first. */
function above(a: DiscordRole, b: DiscordRole): boolean {
  if (a.position !== b.position) return a.position > b.position;
  return BigInt(a.id) < BigInt(b.id);
}

export async function checkDiscord(rest: DiscordRest, settings: DiscordSettings): Promise<DiscordCheck> {
  const result: DiscordCheck = { ok: false, application: null, guild: null, problems: [] };
  const missing = (
    [
      ['application id', settings.applicationId],
      ['public key', settings.publicKey],
      ['bot token', settings.botToken],
      ['server (guild) id', settings.guildId],
    ] as const
  ).filter(([, v]) => !v);
  for (const [name] of missing) result.problems.push(`The ${name} is not set.`);
  if (!settings.botToken) return result;

  try {
    const app = await rest.getApplication();
    result.application = { id: app.id, name: app.name };
    if (settings.applicationId && settings.applicationId !== app.id) {
      result.problems.push(
        `The bot token belongs to the application ${app.name} (${app.id}), not to the application id set (${settings.applicationId}).`,
      );
    }
  } catch (error) {
    result.problems.push(explainDiscordError(error));
    return result;
  }
  const guildId = settings.guildId;
  if (!guildId) return result;

  let botRoles: DiscordRole[];
  let roles: DiscordRole[];
  const botId = result.application.id;
  try {
    const guild = await rest.getGuild(guildId);
    result.guild = { id: guild.id, name: guild.name };
    roles = await rest.getRoles(guildId);
    const member = await rest.getMember(guildId, botId);
    botRoles = roles.filter((r) => r.id === guildId || member.roles.includes(r.id));
    // The server's owner may do anything, above every role.
    if (guild.owner_id === botId) {
      botRoles.push({
        id: guildId,
        name: 'owner',
        position: Number.MAX_SAFE_INTEGER,
        permissions: String(ADMINISTRATOR),
        managed: false,
      });
    }
  } catch (error) {
    const notIn =
      error instanceof DiscordRestError &&
      (error.code === 50001 || error.code === 10004 || error.code === 10007);
    result.problems.push(notIn ? `${BOT_NOT_IN_GUILD} (server id ${guildId})` : explainDiscordError(error));
    return result;
  }

  const permissions = botRoles.reduce((acc, r) => acc | BigInt(r.permissions), 0n);
  if ((permissions & (ADMINISTRATOR | MANAGE_ROLES)) === 0n) result.problems.push(LACKS_MANAGE_ROLES);
  const highest = botRoles.reduce<DiscordRole | null>(
    (top, r) => (top === null || above(r, top) ? r : top),
    null,
  );

  if (settings.premiumRoleId) {
    const role = roles.find((r) => r.id === settings.premiumRoleId);
    if (!role) {
      result.problems.push(
        `The premium role ${settings.premiumRoleId} does not exist in ${result.guild.name}: copy its id again (Server Settings → Roles → right-click → Copy Role ID).`,
      );
    } else if (role.managed) {
      result.problems.push(
        `The premium role “${role.name}” is managed by an integration: nobody can give it by hand. Choose a role you made.`,
      );
    } else if (highest && !above(highest, role)) {
      result.problems.push(
        `The premium role “${role.name}” is above the bot’s highest role “${highest.name}”: drag the bot’s role above it in Server Settings → Roles.`,
      );
    }
  } else {
    result.problems.push('The premium role id is not set: nobody gets a role for a premium key.');
  }
  if (settings.adminRoleId && !roles.some((r) => r.id === settings.adminRoleId)) {
    result.problems.push(`The admin role ${settings.adminRoleId} does not exist in ${result.guild.name}.`);
  }
  result.ok = result.problems.length === 0;
  return result;
}
