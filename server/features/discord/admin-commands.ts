import { CreateScriptKeySchema, SCRIPT_KEY_TYPES, type ScriptKeyType } from '../../../common/script-keys.ts';
import type { AppContext } from '../../context.ts';
import { listActiveDevices } from '../key-status/key-status.store.ts';
import { keySharingLimits } from '../script-keys/key-sharing.service.ts';
import { countKeyAddresses } from '../script-keys/key-sharing.store.ts';
import { createScriptKey, switchOffScriptKey } from '../script-keys/script-keys.service.ts';
import type { CommandCall } from './command-call.ts';
import { WHITELIST_MAX_HOURS } from './commands.ts';
import { DISCORD_TEXTS, discordTime, ephemeral } from './discord-answers.ts';
import { linkKeyToUser, listKeysOfUser } from './discord-links.store.ts';
import { type InteractionMessage, optionValue } from './interaction.schema.ts';

const HOUR_MS = 60 * 60_000;

/**
 * Whether the caller may use the admin commands: they run in the configured guild (when one is set)
 * as a member holding the admin role. Discord signs `member.roles`, so it is the member's own list.
 */
export function adminRefusal(call: CommandCall): InteractionMessage | undefined {
  const { adminRoleId, guildId } = call.settings;
  if (adminRoleId === null) return ephemeral(DISCORD_TEXTS.adminRoleUnset);
  const roles = call.interaction.member?.roles ?? [];
  const inGuild = guildId === null || call.guildId === guildId;
  return inGuild && roles.includes(adminRoleId) ? undefined : ephemeral(DISCORD_TEXTS.adminOnly);
}

/** The `user:` option (a user id; Discord has resolved it to a member of the guild). */
function targetUser(call: CommandCall): string | undefined {
  const value = optionValue(call.interaction, 'user');
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? value : undefined;
}

const mention = (userId: string) => `<@${userId}>`;

/** /whitelist user: type: hours: — a new key of that type for that long, linked to the member. */
export async function whitelistCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const user = targetUser(call);
  const type = optionValue(call.interaction, 'type');
  const hours = optionValue(call.interaction, 'hours');
  if (user === undefined) return ephemeral('`user:` must be a member of this server.');
  if (typeof type !== 'string' || !SCRIPT_KEY_TYPES.includes(type as ScriptKeyType)) {
    return ephemeral(`\`type:\` must be one of ${SCRIPT_KEY_TYPES.join(', ')}.`);
  }
  if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1 || hours > WHITELIST_MAX_HOURS) {
    return ephemeral(`\`hours:\` must be a whole number from 1 to ${WHITELIST_MAX_HOURS}.`);
  }
  const expiresAt = new Date(ctx.now() + hours * HOUR_MS).toISOString();
  const created = await createScriptKey(
    ctx,
    CreateScriptKeySchema.parse({
      scriptType: type,
      expiresAt,
      notes: `Discord /whitelist for ${user} by ${call.userId}`,
    }),
    { ip: call.ip },
  );
  await linkKeyToUser(
    ctx.db,
    { scriptKeyId: created.id, discordUserId: user, guildId: call.guildId },
    ctx.now(),
  );
  ctx.services.discordRoles.linked(user);
  return ephemeral(
    `Made a ${type} key for ${mention(user)}, running out ${discordTime(expiresAt)}: \`…${created.scriptKey.slice(-4)}\`. They see it with /key.`,
  );
}

/** /unwhitelist user: — every key linked to the member switched off (audited, loaders told). */
export async function unwhitelistCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const user = targetUser(call);
  if (user === undefined) return ephemeral('`user:` must be a member of this server.');
  const keys = await listKeysOfUser(ctx.db, user);
  if (keys.length === 0) return ephemeral(`${mention(user)} holds no linked key.`);
  let switchedOff = 0;
  for (const row of keys) {
    const result = await switchOffScriptKey(
      ctx,
      row.id,
      { ip: call.ip },
      `Discord /unwhitelist by ${call.userId}`,
    );
    if (result.switchedOff) switchedOff++;
  }
  return ephemeral(
    `Switched off ${switchedOff} of ${mention(user)}'s ${keys.length} linked key${keys.length === 1 ? '' : 's'} (the others were off already).`,
  );
}

/** /lookup user: — the member's keys, devices and key-sharing signals (addresses and networks in the window). */
export async function lookupCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const user = targetUser(call);
  if (user === undefined) return ephemeral('`user:` must be a member of this server.');
  const keys = await listKeysOfUser(ctx.db, user);
  if (keys.length === 0) return ephemeral(`${mention(user)} holds no linked key.`);
  const now = ctx.now();
  const limits = keySharingLimits(ctx, now);
  const lines = await Promise.all(
    keys.map(async (row) => {
      const [devices, sharing] = await Promise.all([
        listActiveDevices(ctx.db, row.id),
        countKeyAddresses(ctx.db, row.id, limits.since),
      ]);
      const expires =
        row.expires_at === null
          ? 'never runs out'
          : `runs out ${discordTime(new Date(Number(row.expires_at)).toISOString())}`;
      const state =
        row.is_active === 1 ? 'on' : `off${row.disabled_reason ? ` (${row.disabled_reason})` : ''}`;
      const flagged =
        sharing.addresses >= limits.addressThreshold || sharing.networks >= limits.networkThreshold
          ? ' ⚠ sharing?'
          : '';
      return `**${row.script_type}** \`…${row.script_key.slice(-4)}\` ${state}, ${expires} · devices ${devices.length}/${row.max_hardware_bindings} · ${sharing.addresses} addresses, ${sharing.networks} networks in ${limits.windowHours} h${flagged}`;
    }),
  );
  return ephemeral(`${mention(user)}'s keys:\n${lines.join('\n')}`);
}
