import { z } from 'zod';
import { idField } from './ids.ts';
import type { LicenseKeyType } from './licensing.ts';
import type { ScriptKeyType } from './script-keys.ts';

export const BINDING_STATUSES = ['ACTIVE', 'REVOKED'] as const;
export type BindingStatus = (typeof BINDING_STATUSES)[number];

/** What an executor tells about the device it runs on; every field optional. */
export const DeviceInfoSchema = z.object({
  deviceName: z.string().max(100, 'deviceName must be at most 100 characters').optional(),
  os: z.string().max(100, 'os must be at most 100 characters').optional(),
  architecture: z.string().max(50, 'architecture must be at most 50 characters').optional(),
  /** mobile, phone, tablet, laptop, desktop… */
  deviceType: z.string().max(30, 'deviceType must be at most 30 characters').optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

/** A binding as the admin API returns it (times as ISO strings). */
export interface HardwareBinding {
  id: number;
  hardwareId: string;
  status: BindingStatus;
  firstBindDate: string;
  lastUsedDate: string | null;
  deviceInfo: DeviceInfo | null;
  /** The key the device is bound to: a license key or a script key; null when it is gone. */
  licenseKey: { licenseKey: string; keyType: LicenseKeyType | ScriptKeyType } | null;
}

/** GET /api/admin/hardware/bindings: newest first. */
export interface HardwareBindingListResponse {
  bindings: HardwareBinding[];
  count: number;
  timestamp: string;
}

/** POST /api/admin/license/revoke-binding */
export const RevokeBindingSchema = z.object(
  {
    bindingId: idField('bindingId'),
  },
  { error: 'Request body must be a JSON object with bindingId' },
);

export interface RevokeBindingResponse {
  success: true;
  binding: HardwareBinding;
}

export const BINDING_TEXTS = {
  notFound: 'Hardware binding not found',
  alreadyRevoked: 'Hardware binding is already revoked',
} as const;
