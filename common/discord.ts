import { z } from 'zod';

/** Where Discord posts the slash commands (the Developer Portal's "Interactions Endpoint URL"). */
export const DISCORD_INTERACTIONS_PATH = '/api/discord/interactions';

/** The settings System Configuration → Discord edits (the API URL is the environment's alone). */
export const DISCORD_SETTING_FIELDS = [
  'applicationId',
  'publicKey',
  'botToken',
  'guildId',
  'premiumRoleId',
  'adminRoleId',
] as const;
export type DiscordSettingField = (typeof DISCORD_SETTING_FIELDS)[number];

/** The variable that wins over each stored setting. */
export const DISCORD_SETTING_ENV: Record<DiscordSettingField, string> = {
  applicationId: 'DISCORD_APPLICATION_ID',
  publicKey: 'DISCORD_PUBLIC_KEY',
  botToken: 'DISCORD_BOT_TOKEN',
  guildId: 'DISCORD_GUILD_ID',
  premiumRoleId: 'DISCORD_PREMIUM_ROLE_ID',
  adminRoleId: 'DISCORD_ADMIN_ROLE_ID',
};

/** GET/PUT /api/admin/discord/settings: the bot token masked, never whole. */
export const DiscordSettingsViewSchema = z
  .object({
    applicationId: z.string().nullable(),
    publicKey: z.string().nullable(),
    /** Masked (last 4 characters). */
    botToken: z.string().nullable(),
    guildId: z.string().nullable(),
    premiumRoleId: z.string().nullable(),
    adminRoleId: z.string().nullable(),
    apiUrl: z.string(),
    fromEnvironment: z.record(z.enum(DISCORD_SETTING_FIELDS), z.boolean()),
    /** The path Discord posts interactions to; the screen puts its own origin in front. */
    interactionsPath: z.string(),
    /** Whether interactions can be verified (a public key is set). */
    interactionsReady: z.boolean(),
  })
  .meta({ id: 'DiscordSettings' });
export type DiscordSettingsView = z.infer<typeof DiscordSettingsViewSchema>;

export const DiscordSettingsResponseSchema = z
  .object({ settings: DiscordSettingsViewSchema })
  .meta({ id: 'DiscordSettingsResponse' });
export type DiscordSettingsResponse = z.infer<typeof DiscordSettingsResponseSchema>;

/** A text setting: trimmed, null clears it, absent keeps it. */
const setting = (field: string, pattern: RegExp, what: string) =>
  z
    .string({ error: `${field} must be text or null` })
    .trim()
    .refine((value) => pattern.test(value), `${field} must be ${what}`)
    .nullable()
    .optional();

const SNOWFLAKE = /^\d{17,20}$/;
const ID_TEXT = 'a Discord id (17 to 20 digits, from Copy ID with Developer Mode on)';

/** PUT /api/admin/discord/settings: an absent field is kept, null clears it. */
export const UpdateDiscordSettingsSchema = z.object(
  {
    applicationId: setting('applicationId', SNOWFLAKE, ID_TEXT),
    publicKey: setting(
      'publicKey',
      /^[0-9a-fA-F]{64}$/,
      '64 hex characters, as the Developer Portal shows the public key',
    ).transform((v) => (typeof v === 'string' ? v.toLowerCase() : v)),
    botToken: setting('botToken', /^[A-Za-z0-9._-]{20,200}$/, "the bot's token (Bot → Reset Token)"),
    guildId: setting('guildId', SNOWFLAKE, ID_TEXT),
    premiumRoleId: setting('premiumRoleId', SNOWFLAKE, ID_TEXT),
    adminRoleId: setting('adminRoleId', SNOWFLAKE, ID_TEXT),
  },
  { error: 'Request body must be a JSON object' },
);
export type UpdateDiscordSettingsRequest = z.input<typeof UpdateDiscordSettingsSchema>;
export type UpdateDiscordSettings = z.output<typeof UpdateDiscordSettingsSchema>;

/** POST /api/admin/discord/check: what stands between the settings and a working desk. */
export const DiscordCheckResponseSchema = z
  .object({
    /** Nothing missing: commands can be registered and the premium role given. */
    ok: z.boolean(),
    /** Each missing piece in the operator's words (empty when ok). */
    problems: z.array(z.string()),
    application: z.object({ id: z.string(), name: z.string() }).nullable(),
    guild: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .meta({ id: 'DiscordCheck' });
export type DiscordCheckResponse = z.infer<typeof DiscordCheckResponseSchema>;

export const ROLE_GRANT_STATES = ['pending_add', 'granted', 'pending_remove', 'removed', 'failed'] as const;

/** One Discord user's premium role: the change it is making and, when failed, why and when it is retried. */
export const DiscordRoleGrantSchema = z
  .object({
    discordUserId: z.string(),
    guildId: z.string(),
    roleId: z.string(),
    state: z.enum(ROLE_GRANT_STATES),
    /** The change a pending or failed grant is making. */
    action: z.enum(['add', 'remove']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    /** When a failed change is tried again (ISO 8601); null unless failed. */
    retryAt: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DiscordRoleGrant' });
export type DiscordRoleGrant = z.infer<typeof DiscordRoleGrantSchema>;

/** GET /api/admin/discord/role-grants: newest change first. */
export const DiscordRoleGrantsResponseSchema = z
  .object({ grants: z.array(DiscordRoleGrantSchema) })
  .meta({ id: 'DiscordRoleGrants' });
export type DiscordRoleGrantsResponse = z.infer<typeof DiscordRoleGrantsResponseSchema>;
