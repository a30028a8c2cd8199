import {
  DISCORD_INTERACTIONS_PATH,
  DISCORD_SETTING_ENV,
  DISCORD_SETTING_FIELDS,
  type DiscordSettingField,
  type DiscordSettingsView,
  type UpdateDiscordSettings,
} from '../../../common/discord.ts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http-error.ts';
import { maskSetting } from '../payments/payment-settings.service.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { findDiscordSettings, saveDiscordSettings } from './discord-settings.store.ts';

/** The Discord settings in effect: each from its DISCORD_* variable when set, else as stored; null: unset. */
export interface DiscordSettings {
  applicationId: string | null;
  /** 64 hex characters, lower-case. */
  publicKey: string | null;
  botToken: string | null;
  guildId: string | null;
  premiumRoleId: string | null;
  adminRoleId: string | null;
  /** DISCORD_API_URL, without a trailing slash. */
  apiUrl: string;
}

function environmentValues(ctx: AppContext): Record<DiscordSettingField, string | undefined> {
  return {
    applicationId: ctx.config.DISCORD_APPLICATION_ID,
    publicKey: ctx.config.DISCORD_PUBLIC_KEY,
    botToken: ctx.config.DISCORD_BOT_TOKEN,
    guildId: ctx.config.DISCORD_GUILD_ID,
    premiumRoleId: ctx.config.DISCORD_PREMIUM_ROLE_ID,
    adminRoleId: ctx.config.DISCORD_ADMIN_ROLE_ID,
  };
}

/**
 * Read on every interaction (one row by its primary key), so a change saved on one instance holds on
 * all at once; the environment wins setting by setting.
 */
export async function getDiscordSettings(ctx: AppContext): Promise<DiscordSettings> {
  const stored = await findDiscordSettings(ctx.db);
  const env = environmentValues(ctx);
  return {
    applicationId: env.applicationId ?? stored.applicationId,
    publicKey: env.publicKey ?? stored.publicKey,
    botToken: env.botToken ?? stored.botToken,
    guildId: env.guildId ?? stored.guildId,
    premiumRoleId: env.premiumRoleId ?? stored.premiumRoleId,
    adminRoleId: env.adminRoleId ?? stored.adminRoleId,
    apiUrl: ctx.config.DISCORD_API_URL,
  };
}

/** The settings as the admin reads them: the bot token masked like the BTCPay key. */
export async function presentDiscordSettings(ctx: AppContext): Promise<DiscordSettingsView> {
  const settings = await getDiscordSettings(ctx);
  const env = environmentValues(ctx);
  const fromEnvironment = {} as Record<DiscordSettingField, boolean>;
  for (const field of DISCORD_SETTING_FIELDS) fromEnvironment[field] = env[field] !== undefined;
  return {
    ...settings,
    botToken: settings.botToken === null ? null : maskSetting(settings.botToken),
    fromEnvironment,
    interactionsPath: DISCORD_INTERACTIONS_PATH,
    interactionsReady: settings.publicKey !== null,
  };
}

/**
 * Applies a change: an absent field is kept, null clears it; a field the environment sets is a 400
 * naming its variable. Audited `discord_settings_changed` with the fields changed (never the token).
 */
export async function updateDiscordSettings(
  ctx: AppContext,
  change: UpdateDiscordSettings,
  client: { ip: string },
): Promise<DiscordSettingsView> {
  const env = environmentValues(ctx);
  const stored = await findDiscordSettings(ctx.db);
  const next = { ...stored };
  const changed: DiscordSettingField[] = [];
  for (const field of DISCORD_SETTING_FIELDS) {
    const value = change[field];
    if (value === undefined) continue;
    if (env[field] !== undefined) {
      throw badRequest(
        `${field} is set by the environment (${DISCORD_SETTING_ENV[field]}) and cannot be changed here`,
      );
    }
    if (value !== stored[field]) changed.push(field);
    next[field] = value;
  }
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await saveDiscordSettings(trx, next, now);
    await insertAuditLog(
      trx,
      { eventType: 'discord_settings_changed', success: true, ipAddress: client.ip, details: { changed } },
      now,
    );
  });
  return presentDiscordSettings(ctx);
}
