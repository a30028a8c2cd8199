import { z } from 'zod';

export const LICENSE_KEY_TYPES = ['FREE', 'PREMIUM', 'VIP'] as const;
export type LicenseKeyType = (typeof LICENSE_KEY_TYPES)[number];
export const LICENSE_KEY_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type LicenseKeyStatus = (typeof LICENSE_KEY_STATUSES)[number];

/** What the admin sends to create a license key. */
export const CreateLicenseKeySchema = z.object({
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
});
export type CreateLicenseKeyRequest = z.infer<typeof CreateLicenseKeySchema>;

export const LicenseKeyListQuerySchema = z.object({
  search: z.string().max(200).optional(),
  status: z
    .enum([...LICENSE_KEY_STATUSES, 'all'], { error: 'status must be ACTIVE, EXPIRED, REVOKED or all' })
    .optional(),
});

/** A license key as the API returns it (times as ISO strings). */
export interface LicenseKey {
  id: number;
  licenseKey: string;
  keyType: LicenseKeyType;
  status: LicenseKeyStatus;
  maxBindings: number;
  activeBindings: number;
  usageCount: number;
  lastUsed: string | null;
  expiresAt: string | null;
  createdAt: string;
  revokedAt: string | null;
  notes: string | null;
}

/** EXPIRED is derived: a revoked key stays REVOKED, an active one past its expiry reads EXPIRED. */
export function licenseKeyStatus(stored: string, expiresAt: number | null, now: number): LicenseKeyStatus {
  if (stored === 'REVOKED') return 'REVOKED';
  if (expiresAt !== null && expiresAt <= now) return 'EXPIRED';
  return 'ACTIVE';
}
