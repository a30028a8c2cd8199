import { z } from 'zod';
import { DeviceInfoSchema } from './hardware-bindings.ts';
import type { ScriptKeyType } from './script-keys.ts';

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

/** POST /api/script/redeem */
export const RedeemRequestSchema = z.object(
  {
    code: text('code', 100),
    hwid: text('hwid', 200),
    device: DeviceInfoSchema.optional(),
  },
  { error: 'Request body must be a JSON object with code and hwid' },
);
export type RedeemRequest = z.infer<typeof RedeemRequestSchema>;

/** 200: the new script key, already bound to the redeeming device. */
export interface RedeemResponse {
  success: true;
  scriptKey: string;
  scriptType: ScriptKeyType;
  expiresAt: string | null;
  maxHardwareBindings: number;
}

/** POST /api/script/challenge */
export const ChallengeRequestSchema = z.object(
  {
    key: text('key', 200),
    hwid: text('hwid', 200),
  },
  { error: 'Request body must be a JSON object with key and hwid' },
);

/** A single-use nonce; the loader then takes &nonce=…&sig=hex(HMAC-SHA256(key, nonce + hwid + script)). */
export interface ChallengeResponse {
  nonce: string;
  expiresAt: string;
  expiresIn: number;
}

export const CHALLENGE_TTL_MS = 60_000;
