import { REDEMPTION_CODE_PATTERN, renewalFamily } from '../../../common/redemption.ts';
import type { AppContext } from '../../context.ts';
import { findKeyByAnything } from '../key-status/key-lookup.ts';
import { keyStatus, NoResetLeftError, resetHwid } from '../key-status/key-status.service.ts';
import { redeemCode } from '../loader/redeem.service.ts';
import { findRedemptionCodeRow } from '../redemption/redemption.store.ts';
import type { ScriptKeyRow } from '../script-keys/script-keys.store.ts';
import type { CommandCall } from './command-call.ts';
import { DISCORD_TEXTS, describeKey, discordTime, ephemeral } from './discord-answers.ts';
import { linkKeyToUser, listKeysOfUser } from './discord-links.store.ts';
import { type InteractionMessage, optionValue } from './interaction.schema.ts';

/** /key shows at most this many keys (Discord's 2000 characters hold about five). */
const KEYS_SHOWN = 4;

const isRunning = (row: ScriptKeyRow, now: number) =>
  row.is_active === 1 && (row.expires_at === null || Number(row.expires_at) > now);

/** The key as /key shows it, read through My key's own service. */
async function showKey(ctx: AppContext, row: ScriptKeyRow, origin: string): Promise<string> {
  const status = await keyStatus(ctx, row.script_key);
  return describeKey({ ...status, scriptKey: row.script_key }, origin);
}

/** Links the key to the caller, or says whose it is; then shows it. */
async function linkAndShow(ctx: AppContext, call: CommandCall, row: ScriptKeyRow, lead: string) {
  const holder = await linkKeyToUser(
    ctx.db,
    { scriptKeyId: row.id, discordUserId: call.userId, guildId: call.guildId },
    ctx.now(),
  );
  if (holder !== call.userId) return ephemeral(DISCORD_TEXTS.linkedElsewhere);
  ctx.services.discordRoles.linked(call.userId);
  return ephemeral(`${lead}\n${await showKey(ctx, row, call.origin)}`);
}

/**
 * /redeem code: — an available code is redeemed as the universal script's box redeems it: onto the
 * caller's running key of the code's family (a renewal), else into a new key with no device bound
 * yet (the loader binds the first). Anything else a buyer holds (a used code, license key, script
 * key, order link) claims the key it stands for. Either way the key is linked to the caller.
 */
export async function redeemCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const given = String(optionValue(call.interaction, 'code') ?? '').trim();
  const upper = given.toUpperCase();
  const code = REDEMPTION_CODE_PATTERN.test(upper) ? await findRedemptionCodeRow(ctx.db, upper) : undefined;
  if (code && code.is_redeemed === 0) {
    const now = ctx.now();
    const family = renewalFamily(code.key_type);
    const onto = (await listKeysOfUser(ctx.db, call.userId)).find(
      (row) => isRunning(row, now) && row.expires_at !== null && renewalFamily(row.script_type) === family,
    );
    const result = await redeemCode(ctx, { code: upper, key: onto?.script_key }, { ip: call.ip });
    if ('extended' in result && onto) {
      return ephemeral(
        `Added ${result.addedHours} hours to your key: it now runs out ${discordTime(result.expiresAt)}.\n${await showKey(ctx, onto, call.origin)}`,
      );
    }
  }
  const found = given === '' ? undefined : await findKeyByAnything(ctx, given);
  if (!found) return ephemeral(DISCORD_TEXTS.unknownCode);
  const lead = code ? 'Your code is redeemed and the key is linked to you.' : 'The key is linked to you.';
  return linkAndShow(ctx, call, found.row, lead);
}

/** /key — the caller's keys with their snippets. */
export async function keyCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const keys = await listKeysOfUser(ctx.db, call.userId);
  if (keys.length === 0) return ephemeral(DISCORD_TEXTS.noLinkedKey);
  const shown = await Promise.all(keys.slice(0, KEYS_SHOWN).map((row) => showKey(ctx, row, call.origin)));
  const more =
    keys.length > KEYS_SHOWN ? `\n…and ${keys.length - KEYS_SHOWN} more (see /key on the site).` : '';
  return ephemeral(`${shown.join('\n\n')}${more}`);
}

/** Which of the caller's keys /resethwid means, or the answer asking which. */
function pickKeyToReset(keys: ScriptKeyRow[], given: string, now: number): ScriptKeyRow | InteractionMessage {
  if (given !== '') {
    const match = keys.filter((row) => row.script_key.toLowerCase().endsWith(given.toLowerCase()));
    return match.length === 1 && match[0] ? match[0] : ephemeral(DISCORD_TEXTS.noSuchKey(given));
  }
  const running = keys.filter((row) => isRunning(row, now));
  if (running.length > 1)
    return ephemeral(DISCORD_TEXTS.chooseKey(running.map((r) => r.script_key.slice(-4))));
  // One running key; or none, and the reset service says why the first cannot reset (expired, off).
  return running[0] ?? (keys[0] as ScriptKeyRow);
}

/**
 * /resethwid [key:] — the reset My key makes on the web (resetHwid: the same weekly budget, extras,
 * cool-down, hwid_resets row and audit row), for the caller's key.
 */
export async function resetHwidCommand(ctx: AppContext, call: CommandCall): Promise<InteractionMessage> {
  const keys = await listKeysOfUser(ctx.db, call.userId);
  if (keys.length === 0) return ephemeral(DISCORD_TEXTS.noLinkedKey);
  const picked = pickKeyToReset(keys, String(optionValue(call.interaction, 'key') ?? '').trim(), ctx.now());
  if ('content' in picked) return picked;
  try {
    const reset = await resetHwid(ctx, picked.script_key, { by: 'buyer', ip: call.ip });
    const next = reset.nextResetAt === null ? '' : ` The next is possible ${discordTime(reset.nextResetAt)}.`;
    return ephemeral(
      `Removed ${reset.removed} device${reset.removed === 1 ? '' : 's'} from \`…${picked.script_key.slice(-4)}\`: run the script again on your new device. Resets left: ${reset.resetsLeft}.${next}`,
    );
  } catch (error) {
    if (error instanceof NoResetLeftError) return ephemeral(DISCORD_TEXTS.noResetLeft(error.nextResetAt));
    throw error;
  }
}
