import type { KeyStatusResponse } from '../../../common/key-status.ts';
import { buildLoaderSnippet } from '../../../common/loader-snippet.ts';
import { PREMIUM_SCRIPT_FILE, UNIVERSAL_SCRIPT_FILE } from '../../../common/public-defaults.ts';
import { EPHEMERAL, type InteractionMessage } from './interaction.schema.ts';

/** Discord refuses a message longer than this. */
const MAX_CONTENT = 2000;

/** The texts the commands answer with (docs/discord.md quotes them). */
export const DISCORD_TEXTS = {
  notConfigured:
    'Discord interactions are not set up on this server yet: ask its operator to set the public key.',
  unknownCommand: (name: string) => `\`/${name}\` is not a command this server knows. Try /key or /redeem.`,
  unsupported: 'This server only answers slash commands.',
  noLinkedKey:
    'No key is linked to your Discord account. Use `/redeem code:` with your code (or your key) to link it.',
  unknownCode: 'That is not a code, key or order link this server knows. Check it and try again.',
  linkedElsewhere: 'That key is linked to another Discord account. Ask an admin if it is yours.',
  chooseKey: (suffixes: string[]) =>
    `You hold several running keys: say which with \`key:\` (its last 4 characters: ${suffixes.join(', ')}).`,
  noSuchKey: (given: string) => `None of your keys ends with \`${given}\`. /key lists them.`,
  noResetLeft: (next: string | null) =>
    `No device reset left${next === null ? '.' : `: the next one is possible ${discordTime(next)}.`}`,
  adminOnly: 'This command is for admins only (the admin role set in System Configuration → Discord).',
  adminRoleUnset: 'Admin commands are off: no admin role is set in System Configuration → Discord.',
  failed: 'Something went wrong on our side. Try again in a minute.',
} as const;

/** An answer only the user who ran the command sees. */
export function ephemeral(content: string): InteractionMessage {
  return { content: clip(content), flags: EPHEMERAL, allowed_mentions: { parse: [] } };
}

/** An answer everyone in the channel sees. */
export function publicMessage(content: string): InteractionMessage {
  return { content: clip(content), allowed_mentions: { parse: [] } };
}

function clip(content: string): string {
  return content.length <= MAX_CONTENT ? content : `${content.slice(0, MAX_CONTENT - 1)}…`;
}

/** An ISO time as Discord renders it in each reader's own zone, relative ("in 3 days"). */
export function discordTime(iso: string): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:R>`;
}

/** The loader line for the key: the premium scanner for a paid key, the universal script for a FREE one. */
export function keySnippet(origin: string, scriptKey: string, type: string): string {
  const script = type === 'FREE' ? UNIVERSAL_SCRIPT_FILE : PREMIUM_SCRIPT_FILE;
  return buildLoaderSnippet(origin, script, scriptKey);
}

/** One key as /key and /redeem show it: type, state, time left, devices, resets left, the snippet. */
export function describeKey(status: KeyStatusResponse & { scriptKey: string }, origin: string): string {
  const left =
    status.status === 'Expired'
      ? 'expired'
      : status.expiresAt === null
        ? 'never runs out'
        : `runs out ${discordTime(status.expiresAt)}`;
  const reason = status.disabledReason ? ` (${status.disabledReason})` : '';
  return [
    `**${status.type}** \`${status.scriptKey}\` — ${status.status}${reason}, ${left}`,
    `Devices ${status.devices.length}/${status.maxDevices} · resets left ${status.resetsLeft}`,
    `\`\`\`lua\n${keySnippet(origin, status.scriptKey, status.type)}\n\`\`\``,
  ].join('\n');
}
