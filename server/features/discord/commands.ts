import { SCRIPT_KEY_TYPES } from '../../../common/script-keys.ts';

/** Discord's ApplicationCommandOptionType values the commands use. */
const OPTION = { string: 3, integer: 4, user: 6 } as const;

/** ApplicationCommandType CHAT_INPUT: a slash command. */
const CHAT_INPUT = 1;

/** A command as Discord's bulk overwrite (`PUT …/applications/{id}/guilds/{guild}/commands`) takes it. */
export interface DiscordCommandDefinition {
  name: string;
  description: string;
  type: typeof CHAT_INPUT;
  options?: {
    name: string;
    description: string;
    type: (typeof OPTION)[keyof typeof OPTION];
    required: boolean;
    choices?: { name: string; value: string }[];
    min_value?: number;
    max_value?: number;
    max_length?: number;
  }[];
  /** "0": hidden from members without Administrator until a server admin allows them; null: everyone. */
  default_member_permissions?: string | null;
  /** Not in direct messages with the bot (the admin role is a guild's). */
  dm_permission?: boolean;
}

/** Longest whitelist Discord may ask for: ten years, in hours. */
export const WHITELIST_MAX_HOURS = 87_600;

/**
 * The slash commands, as registered with Discord (the registration is the discord-rest side's).
 * Admin commands are checked against the admin role on every use; `default_member_permissions: "0"`
 * only keeps them out of everyone's command list.
 */
export const DISCORD_COMMANDS: readonly DiscordCommandDefinition[] = [
  {
    name: 'redeem',
    description: 'Redeem a code (or claim your key) and get your key with its loader',
    type: CHAT_INPUT,
    options: [
      {
        name: 'code',
        description: 'Your SCANLINE-… code, license key, script key or order link',
        type: OPTION.string,
        required: true,
        max_length: 256,
      },
    ],
  },
  { name: 'key', description: 'Your keys: type, time left, devices, resets and loader', type: CHAT_INPUT },
  {
    name: 'resethwid',
    description: 'Remove the devices bound to your key, so your new device can bind',
    type: CHAT_INPUT,
    options: [
      {
        name: 'key',
        description: 'Which key, when you hold several: its last 4 characters',
        type: OPTION.string,
        required: false,
        max_length: 67,
      },
    ],
  },
  { name: 'status', description: 'The scanner fleet in one line', type: CHAT_INPUT },
  {
    name: 'whitelist',
    description: 'Admin: make a key for a member and link it to them',
    type: CHAT_INPUT,
    default_member_permissions: '0',
    dm_permission: false,
    options: [
      { name: 'user', description: 'The member', type: OPTION.user, required: true },
      {
        name: 'type',
        description: 'Key type',
        type: OPTION.string,
        required: true,
        choices: SCRIPT_KEY_TYPES.map((type) => ({ name: type, value: type })),
      },
      {
        name: 'hours',
        description: 'How long the key runs',
        type: OPTION.integer,
        required: true,
        min_value: 1,
        max_value: WHITELIST_MAX_HOURS,
      },
    ],
  },
  {
    name: 'unwhitelist',
    description: 'Admin: switch off every key linked to a member',
    type: CHAT_INPUT,
    default_member_permissions: '0',
    dm_permission: false,
    options: [{ name: 'user', description: 'The member', type: OPTION.user, required: true }],
  },
  {
    name: 'lookup',
    description: "Admin: a member's keys, devices and key-sharing signals",
    type: CHAT_INPUT,
    default_member_permissions: '0',
    dm_permission: false,
    options: [{ name: 'user', description: 'The member', type: OPTION.user, required: true }],
  },
];
