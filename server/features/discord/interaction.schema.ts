import { z } from 'zod';

/** Interaction types Discord sends (its documentation's InteractionType). */
export const INTERACTION_TYPE = { ping: 1, applicationCommand: 2 } as const;

/** Answer types (InteractionCallbackType) this server uses. */
export const CALLBACK_TYPE = { pong: 1, message: 4, deferredMessage: 5 } as const;

/** MessageFlags.EPHEMERAL: only the user who ran the command sees the answer. */
export const EPHEMERAL = 64;

const snowflake = z.string().regex(/^\d{1,20}$/, 'must be a Discord id (digits)');

const UserSchema = z.object({ id: snowflake, username: z.string().optional() });

/** An option as Discord sends it: a value for ours (none has sub-commands). */
const OptionSchema = z.object({
  name: z.string(),
  type: z.number().int(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
});

/**
 * The part of an interaction this server reads (Discord sends more; the rest is ignored). A command
 * run in a guild carries `member` (with its roles and `member.user`), one in a direct message `user`.
 */
export const InteractionSchema = z.object(
  {
    id: snowflake,
    application_id: snowflake,
    type: z.number().int(),
    token: z.string().min(1).max(1000),
    guild_id: snowflake.optional(),
    member: z.object({ user: UserSchema, roles: z.array(snowflake) }).optional(),
    user: UserSchema.optional(),
    data: z
      .object({
        name: z.string().max(32),
        options: z.array(OptionSchema).max(25).optional(),
        resolved: z.object({ users: z.record(z.string(), UserSchema).optional() }).optional(),
      })
      .optional(),
  },
  { error: 'the interaction must be a JSON object' },
);
export type Interaction = z.infer<typeof InteractionSchema>;

/** What the server answers an application command with (type 4), or sends as its follow-up. */
export interface InteractionMessage {
  content: string;
  /** EPHEMERAL, or absent for an answer everyone in the channel sees. */
  flags?: number;
  /** No mention in an answer pings anyone. */
  allowed_mentions: { parse: [] };
}

/** The value of the named option, or undefined. */
export function optionValue(interaction: Interaction, name: string): string | number | boolean | undefined {
  return interaction.data?.options?.find((option) => option.name === name)?.value;
}
