import { z } from 'zod';
import { DeviceInfoSchema } from './hardware-bindings.ts';
import { SCRIPT_KEY_TYPES } from './script-keys.ts';

/*
 * The calls script users' executors make (no session): redeem a code, ask for a challenge nonce.
 * The loader itself is GET /api/script/loader (see server/features/scripts/loader.routes.ts).
 */

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`);

/**
 * POST /api/script/redeem. Without `key`: the code becomes a new script key bound to `hwid`. With
 * `key` (the running key, or anything /key takes for it): a renewal, the code's hours are added to
 * that key and no device is bound, so `hwid` may be left out.
 */
export const RedeemRequestSchema = z
  .object(
    {
      code: text('code', 100),
      hwid: text('hwid', 200).optional(),
      key: text('key', 256).optional(),
      device: DeviceInfoSchema.optional(),
    },
    { error: 'Request body must be a JSON object with code and hwid' },
  )
  .superRefine((body, issues) => {
    if (body.hwid === undefined && body.key === undefined)
      issues.addIssue({ code: 'custom', path: ['hwid'], message: 'hwid is required' });
  });
export type RedeemRequest = z.infer<typeof RedeemRequestSchema>;

/** 200: the new script key, already bound to the redeeming device. */
export const RedeemResponseSchema = z.object({
  success: z.literal(true),
  scriptKey: z.string(),
  scriptType: z.enum(SCRIPT_KEY_TYPES),
  expiresAt: z.string().nullable(),
  maxHardwareBindings: z.number(),
});
export type RedeemResponse = z.infer<typeof RedeemResponseSchema>;

/** 200 of a renewal (redeem with `key`): the key's new expiry (ISO) and the hours added. */
export const RenewResponseSchema = z.object({
  extended: z.literal(true),
  expiresAt: z.string(),
  addedHours: z.number().int(),
});
export type RenewResponse = z.infer<typeof RenewResponseSchema>;

/** POST /api/script/challenge */
export const ChallengeRequestSchema = z.object(
  {
    key: text('key', 200),
    hwid: text('hwid', 200),
  },
  { error: 'Request body must be a JSON object with key and hwid' },
);

/** A single-use nonce; the loader then takes &nonce=…&sig=hex(HMAC-SHA256(key, nonce + hwid + script)). */
export const ChallengeResponseSchema = z.object({
  nonce: z.string(),
  expiresAt: z.string(),
  expiresIn: z.number(),
});
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/**
 * GET /api/script/loader answers Lua for `loadstring(game:HttpGet(url))()`: the script, a bootstrap
 * that reads the device id and calls again, or (for an executor) a refusal that prints its reason.
 */
export const LoaderLuaSchema = z.string().meta({
  description: 'Lua source (text/plain): the script, a bootstrap, or a refusal that prints its reason',
});

export const CHALLENGE_TTL_MS = 60_000;

/**
 * GET /api/script/loader-key: the public key the loader's answers are signed with. Every Lua answer
 * carries `X-Scanline-Signature: ed25519=<base64>`, an Ed25519 signature of its exact body.
 */
export const LoaderKeyResponseSchema = z
  .object({
    algorithm: z.literal('Ed25519'),
    /** The raw 32-byte public key, base64. */
    publicKey: z.string(),
    header: z.literal('X-Scanline-Signature'),
  })
  .meta({ id: 'LoaderKey' });
export type LoaderKeyResponse = z.infer<typeof LoaderKeyResponseSchema>;
