import { z } from 'zod';
import { idField } from './ids.ts';
import { MAX_BINDINGS_RANGE } from './redemption.ts';

export const SCRIPT_KEY_TYPES = ['FREE', 'PREMIUM', 'VIP', 'premium_24h'] as const;
export type ScriptKeyType = (typeof SCRIPT_KEY_TYPES)[number];

/** The filter's labels for each type, in the spec's order. */
export const SCRIPT_KEY_TYPE_LABELS: Record<ScriptKeyType, string> = {
  FREE: 'Free',
  PREMIUM: 'Premium',
  VIP: 'VIP',
  premium_24h: 'Premium 24h',
};

/** A premium_24h key made without an expiry expires this long after creation. */
export const PREMIUM_24H_MS = 24 * 60 * 60 * 1000;

const idOrNull = (field: string) => idField(field, `${field} must be a number or null`).nullable().optional();

/** POST /api/admin/script-keys/create */
export const CreateScriptKeySchema = z.object(
  {
    scriptType: z
      .enum(SCRIPT_KEY_TYPES, { error: 'scriptType must be FREE, PREMIUM, VIP or premium_24h' })
      .default('PREMIUM'),
    licenseKeyId: idOrNull('licenseKeyId'),
    redemptionKeyId: idOrNull('redemptionKeyId'),
    /** ISO date-time; null or absent: never expires (premium_24h: 24 hours from now). */
    expiresAt: z.iso
      .datetime({ offset: true, error: 'expiresAt must be an ISO date-time' })
      .nullable()
      .optional(),
    isActive: z.union([z.literal(0), z.literal(1)], { error: 'isActive must be 0 or 1' }).default(1),
    maxHardwareBindings: z
      .number({ error: 'maxHardwareBindings must be a number' })
      .int('maxHardwareBindings must be a whole number')
      .min(MAX_BINDINGS_RANGE.min, 'maxHardwareBindings must be between 1 and 10')
      .max(MAX_BINDINGS_RANGE.max, 'maxHardwareBindings must be between 1 and 10')
      .default(MAX_BINDINGS_RANGE.default),
    notes: z.string().max(1000, 'notes must be at most 1000 characters').nullable().optional(),
  },
  { error: 'Request body must be a JSON object' },
);
export type CreateScriptKeyRequest = z.input<typeof CreateScriptKeySchema>;

/** toggle-status and delete take the key's id in the body. */
export const ScriptKeyIdBodySchema = z.object(
  {
    keyId: idField('keyId'),
  },
  { error: 'Request body must be a JSON object with keyId' },
);

/** A script key as the admin API returns it (times as ISO strings). */
export const ScriptKeySchema = z
  .object({
    id: z.number().int(),
    scriptKey: z.string(),
    scriptType: z.enum(SCRIPT_KEY_TYPES),
    isActive: z.union([z.literal(0), z.literal(1)]),
    usageCount: z.number().int(),
    lastUsed: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    licenseKeyId: z.number().int().nullable(),
    redemptionKeyId: z.number().int().nullable(),
    notes: z.string().nullable(),
    maxHardwareBindings: z.number().int(),
    activeBindings: z.number().int(),
    /** Why the key was switched off automatically (key sharing), as its buyer sees it; null otherwise. */
    disabledReason: z.string().nullable(),
    /** The Discord user the key is linked to (by /redeem or /whitelist), their snowflake id; null: none. */
    discordUserId: z.string().nullable(),
  })
  .meta({ id: 'ScriptKey' });
export type ScriptKey = z.infer<typeof ScriptKeySchema>;

/** GET /api/admin/script-keys/list: newest first. */
export const ScriptKeyListResponseSchema = z
  .object({ scriptKeys: z.array(ScriptKeySchema), count: z.number().int(), timestamp: z.string() })
  .meta({ id: 'ScriptKeyList' });
export type ScriptKeyListResponse = z.infer<typeof ScriptKeyListResponseSchema>;

/** POST /api/admin/script-keys/create (201). */
export const ScriptKeyResponseSchema = z
  .object({ scriptKey: ScriptKeySchema })
  .meta({ id: 'ScriptKeyCreated' });
export type ScriptKeyResponse = z.infer<typeof ScriptKeyResponseSchema>;

/** POST /api/admin/script-keys/toggle-status */
export const ScriptKeyToggleResponseSchema = z
  .object({ message: z.string(), scriptKey: ScriptKeySchema })
  .meta({ id: 'ScriptKeyToggled' });
export type ScriptKeyToggleResponse = z.infer<typeof ScriptKeyToggleResponseSchema>;

/** DELETE /api/admin/script-keys/delete */
export const ScriptKeyDeletedSchema = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: 'ScriptKeyDeleted' });

export type ScriptKeyDisplayStatus = 'Expired' | 'Active' | 'Inactive';

/** Expired (past expiresAt) takes priority; then Active or Inactive. */
export function scriptKeyDisplayStatus(
  key: Pick<ScriptKey, 'isActive' | 'expiresAt'>,
  now: number = Date.now(),
): ScriptKeyDisplayStatus {
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return 'Expired';
  return key.isActive === 1 ? 'Active' : 'Inactive';
}

export const SCRIPT_KEY_TEXTS = {
  notFound: 'Script key not found',
  licenseKeyNotFound: 'licenseKeyId: no license key with that id',
  redemptionKeyNotFound: 'redemptionKeyId: no redemption code with that id',
  redemptionKeyTaken: 'redemptionKeyId: that code already has a script key',
  expiresInPast: 'expiresAt must be in the future',
  activated: 'Script key activated',
  deactivated: 'Script key deactivated',
  deleted: 'Script key deleted',
} as const;

/** One address a key was used from in the key-sharing window (times ISO strings). */
export const KeySharingUseSchema = z
  .object({ address: z.string(), network: z.string(), firstSeen: z.string(), lastSeen: z.string() })
  .meta({ id: 'KeySharingUse' });
export type KeySharingUse = z.infer<typeof KeySharingUseSchema>;

/** A key used from more addresses or networks than the thresholds allow, and what it did. */
export const SharedScriptKeySchema = z
  .object({
    id: z.number().int(),
    scriptKey: z.string(),
    scriptType: z.enum(SCRIPT_KEY_TYPES),
    isActive: z.union([z.literal(0), z.literal(1)]),
    /** Why it was switched off automatically (what its buyer sees); null otherwise. */
    disabledReason: z.string().nullable(),
    /** Distinct addresses (an IPv6 address counted by its /64) within the window. */
    addresses: z.number().int(),
    /** Distinct /24s (IPv4) and /48s (IPv6) within the window. */
    networks: z.number().int(),
    lastSeen: z.string(),
    /** The latest uses, newest first (at most KEY_SHARING_USES_SHOWN). */
    uses: z.array(KeySharingUseSchema),
  })
  .meta({ id: 'SharedScriptKey' });
export type SharedScriptKey = z.infer<typeof SharedScriptKeySchema>;

/** GET /api/admin/script-keys/sharing: flagged keys, most addresses first, with the settings in force. */
export const KeySharingResponseSchema = z
  .object({
    keys: z.array(SharedScriptKeySchema),
    windowHours: z.number().int(),
    addressThreshold: z.number().int(),
    networkThreshold: z.number().int(),
    autoDisable: z.boolean(),
    timestamp: z.string(),
  })
  .meta({ id: 'KeySharing' });
export type KeySharingResponse = z.infer<typeof KeySharingResponseSchema>;

/** The uses listed per flagged key. */
export const KEY_SHARING_USES_SHOWN = 20;

export const KEY_SHARING_TEXTS = {
  /**
   * Stored on a key KEY_SHARING_AUTO_DISABLE switched off; the loader and My key show it to the buyer.
   */
  disabledReason: (addresses: number, networks: number, hours: number) =>
    `it was used from ${addresses} addresses in ${networks} networks within ${hours} hours, ` +
    'which looks like a shared key. Ask the seller to switch it back on',
} as const;
