import { z } from 'zod';

/** Empty or blank text is no value: `DISCORD_BOT_TOKEN=` leaves the setting to System Configuration. */
const blankAsUnset = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/** A Discord id (a snowflake): digits only, as Developer Mode's "Copy ID" gives it. */
const snowflake = (example: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = blankAsUnset(v);
      if (value === undefined || /^\d{17,20}$/.test(value)) return value;
      ctx.addIssue(`${value} is not a Discord id (17 to 20 digits, like ${example})`);
      return z.NEVER;
    });

/**
 * Discord (server/features/discord, docs/discord.md): the application whose slash commands reach
 * `POST /api/discord/interactions`, and the guild whose premium role follows the buyers' keys. Each
 * setting but DISCORD_API_URL may instead be stored in System Configuration → Discord; set here, it
 * wins there, setting by setting.
 */
export const DISCORD_SETTINGS = {
  /** The application's id (Developer Portal → General Information → Application ID). */
  DISCORD_APPLICATION_ID: snowflake('1234567890123456789'),
  /** The application's public key, 64 hex characters as the Developer Portal shows it (signs interactions). */
  DISCORD_PUBLIC_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = blankAsUnset(v)?.toLowerCase();
      if (value === undefined || /^[0-9a-f]{64}$/.test(value)) return value;
      ctx.addIssue('is not a public key: 64 hex characters, as the Developer Portal shows it');
      return z.NEVER;
    }),
  /** The bot's token (Developer Portal → Bot → Reset Token): command registration and the premium role. */
  DISCORD_BOT_TOKEN: z.string().optional().transform(blankAsUnset),
  /** The Discord server (guild) the commands are registered in and the premium role is given in. */
  DISCORD_GUILD_ID: snowflake('1234567890123456789'),
  /** The role a buyer holding a paid key gets in that guild. */
  DISCORD_PREMIUM_ROLE_ID: snowflake('1234567890123456789'),
  /** Members holding this role may use /whitelist, /unwhitelist and /lookup. */
  DISCORD_ADMIN_ROLE_ID: snowflake('1234567890123456789'),
  /** Discord's REST API base (tests point it at their fake on loopback). */
  DISCORD_API_URL: z
    .string()
    .default('https://discord.com/api/v10')
    .transform((v, ctx) => {
      const url = v.trim().replace(/\/+$/, '');
      if (/^https?:\/\/[^/]/.test(url) && URL.canParse(url)) return url;
      ctx.addIssue(`${v} is not an http(s) URL like https://discord.com/api/v10`);
      return z.NEVER;
    }),
};
