import { z } from 'zod';
import { LICENSE_KEY_TYPES, type LicenseKeyType } from './licensing.ts';
import { maskSecret } from './mask.ts';

/** A code's type is the type of the script key it becomes. */
export const REDEMPTION_KEY_TYPES = LICENSE_KEY_TYPES;
export type RedemptionKeyType = LicenseKeyType;

export const MAX_BINDINGS_RANGE = { min: 1, max: 10, default: 1 } as const;
/** Hours the script key made from a code stays valid (1 hour to 30 days). */
export const VALIDITY_HOURS_RANGE = { min: 1, max: 720, default: 24 } as const;

/** The fixed prefix of every code; then four dash-separated groups of four uppercase letters or digits. */
export const REDEMPTION_CODE_PREFIX = 'SCANLINE-';
export const REDEMPTION_CODE_PATTERN = /^SCANLINE-[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/;

/** POST /api/admin/create-redemption-key */
export const CreateRedemptionKeySchema = z.object(
  {
    keyType: z
      .enum(REDEMPTION_KEY_TYPES, { error: 'keyType must be FREE, PREMIUM or VIP' })
      .default('PREMIUM'),
    maxHardwareBindings: z
      .number({ error: 'maxHardwareBindings must be a number' })
      .int('maxHardwareBindings must be a whole number')
      .min(MAX_BINDINGS_RANGE.min, 'maxHardwareBindings must be between 1 and 10')
      .max(MAX_BINDINGS_RANGE.max, 'maxHardwareBindings must be between 1 and 10')
      .default(MAX_BINDINGS_RANGE.default),
    validityDuration: z
      .number({ error: 'validityDuration must be a number of hours' })
      .int('validityDuration must be a whole number of hours')
      .min(VALIDITY_HOURS_RANGE.min, 'validityDuration must be between 1 and 720 hours')
      .max(VALIDITY_HOURS_RANGE.max, 'validityDuration must be between 1 and 720 hours')
      .default(VALIDITY_HOURS_RANGE.default),
    /** ISO date-time after which the code can no longer be redeemed; null or absent: never. */
    expiresAt: z.iso
      .datetime({ offset: true, error: 'expiresAt must be an ISO date-time' })
      .nullable()
      .optional(),
    notes: z.string().max(1000, 'notes must be at most 1000 characters').nullable().optional(),
  },
  { error: 'Request body must be a JSON object' },
);
export type CreateRedemptionKeyRequest = z.input<typeof CreateRedemptionKeySchema>;

/** A redemption code as the admin API returns it (times as ISO strings). */
export const RedemptionKeySchema = z
  .object({
    id: z.number().int(),
    redemptionCode: z.string(),
    keyType: z.enum(REDEMPTION_KEY_TYPES),
    isRedeemed: z.union([z.literal(0), z.literal(1)]),
    redeemedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    maxHardwareBindings: z.number().int(),
    validityDuration: z.number().int(),
    notes: z.string().nullable(),
    /** The script key this code became, once redeemed. */
    scriptKeyId: z.number().int().nullable(),
  })
  .meta({ id: 'RedemptionKey' });
export type RedemptionKey = z.infer<typeof RedemptionKeySchema>;

/** GET /api/admin/redemption-keys: newest first. */
export const RedemptionKeyListResponseSchema = z
  .object({ redemptionKeys: z.array(RedemptionKeySchema), count: z.number().int(), timestamp: z.string() })
  .meta({ id: 'RedemptionKeyList' });
export type RedemptionKeyListResponse = z.infer<typeof RedemptionKeyListResponseSchema>;

/** POST /api/admin/create-redemption-key (201). */
export const RedemptionKeyResponseSchema = z
  .object({ redemptionKey: RedemptionKeySchema })
  .meta({ id: 'RedemptionKeyCreated' });
export type RedemptionKeyResponse = z.infer<typeof RedemptionKeyResponseSchema>;

export type RedemptionStatus = 'Redeemed' | 'Expired' | 'Available';

/** Redeemed wins; otherwise Expired once expiresAt has passed; otherwise Available. */
export function redemptionStatus(
  key: Pick<RedemptionKey, 'isRedeemed' | 'expiresAt'>,
  now: number = Date.now(),
): RedemptionStatus {
  if (key.isRedeemed === 1) return 'Redeemed';
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return 'Expired';
  return 'Available';
}

/** Codes: 4 leading and 4 trailing characters; 8 or fewer shown whole. */
export const maskRedemptionCode = (code: string) => maskSecret(code, 4, 4);

/** Texts the redemption calls answer with (JSON `{error}`), shared by admin and script-user routes. */
export const REDEMPTION_TEXTS = {
  notFound: 'Redemption code not found',
  invalidCode: 'Invalid redemption code',
  alreadyRedeemed: 'This code has already been redeemed',
  expired: 'This code has expired',
  conflict: 'This code was redeemed by another request at the same moment',
  expiresInPast: 'expiresAt must be in the future',
  /** Renewal (redeem with `key`): the code's type family must be the key's (premium_24h counts as PREMIUM). */
  typeMismatch: (codeType: string, keyType: string) =>
    `This is a ${codeType} code and the key is ${keyType}: a code renews only a key of its own type`,
  renewNeverExpires: 'This key never expires: there is no time to add',
  renewSwitchedOff: 'This key is switched off; it cannot be renewed',
} as const;

/** The type family a code renews: a premium_24h key takes PREMIUM codes. */
export function renewalFamily(type: string): string {
  return type === 'premium_24h' ? 'PREMIUM' : type;
}
