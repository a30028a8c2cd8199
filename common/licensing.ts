import { z } from 'zod';

export const LICENSE_KEY_TYPES = ['FREE', 'PREMIUM', 'VIP'] as const;
export type LicenseKeyType = (typeof LICENSE_KEY_TYPES)[number];
export const LICENSE_KEY_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type LicenseKeyStatus = (typeof LICENSE_KEY_STATUSES)[number];

/** What the admin sends to create a license key. */
export const CreateLicenseKeySchema = z.object(
  {
    keyType: z.enum(LICENSE_KEY_TYPES, { error: 'keyType must be FREE, PREMIUM or VIP' }),
    maxBindings: z
      .number({ error: 'maxBindings must be a number' })
      .int('maxBindings must be a whole number')
      .min(1, 'maxBindings must be between 1 and 10')
      .max(10, 'maxBindings must be between 1 and 10')
      .default(1),
    /** ISO date-time; null or absent means the key never expires. */
    expiresAt: z.iso
      .datetime({ offset: true, error: 'expiresAt must be an ISO date-time' })
      .nullable()
      .optional(),
    notes: z.string().max(1000, 'notes must be at most 1000 characters').nullable().optional(),
  },
  { error: 'Request body must be a JSON object with keyType' },
);
export type CreateLicenseKeyRequest = z.infer<typeof CreateLicenseKeySchema>;

/** GET /api/admin/license-keys filters: `search` is a case-insensitive contains over key and notes. */
export const LicenseKeyListQuerySchema = z.object({
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  status: z
    .enum([...LICENSE_KEY_STATUSES, 'all'], { error: 'status must be ACTIVE, EXPIRED, REVOKED or all' })
    .optional(),
});

/** Texts the license key calls answer with. */
export const LICENSE_KEY_TEXTS = {
  expiresInPast: 'expiresAt must be in the future',
  notFound: 'License key not found',
  alreadyRevoked: 'License key is already revoked',
} as const;

/** A license key as the API returns it (times as ISO strings). */
export const LicenseKeySchema = z.object({
  id: z.number(),
  licenseKey: z.string(),
  keyType: z.enum(LICENSE_KEY_TYPES),
  status: z.enum(LICENSE_KEY_STATUSES),
  maxBindings: z.number(),
  activeBindings: z.number(),
  usageCount: z.number(),
  lastUsed: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  notes: z.string().nullable(),
});
export type LicenseKey = z.infer<typeof LicenseKeySchema>;

/** POST /api/admin/license-keys (201) and POST /api/admin/license-keys/:id/revoke. */
export const LicenseKeyResponseSchema = z.object({ licenseKey: LicenseKeySchema });
export type LicenseKeyResponse = z.infer<typeof LicenseKeyResponseSchema>;

/** GET /api/admin/license-keys: newest first. */
export const LicenseKeyListResponseSchema = z.object({
  licenseKeys: z.array(LicenseKeySchema),
  count: z.number(),
  timestamp: z.string(),
});
export type LicenseKeyListResponse = z.infer<typeof LicenseKeyListResponseSchema>;

/** EXPIRED is derived: a revoked key stays REVOKED, an active one past its expiry reads EXPIRED. */
export function licenseKeyStatus(stored: string, expiresAt: number | null, now: number): LicenseKeyStatus {
  if (stored === 'REVOKED') return 'REVOKED';
  if (expiresAt !== null && expiresAt <= now) return 'EXPIRED';
  return 'ACTIVE';
}
