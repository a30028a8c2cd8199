import { z } from 'zod';
import { idField } from './ids.ts';
import { LICENSE_KEY_TYPES } from './licensing.ts';
import { SCRIPT_KEY_TYPES } from './script-keys.ts';

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
export const HardwareBindingSchema = z.object({
  id: z.number(),
  hardwareId: z.string(),
  status: z.enum(BINDING_STATUSES),
  firstBindDate: z.string(),
  lastUsedDate: z.string().nullable(),
  // As stored: what the executor sent, within DeviceInfoSchema's bounds when it came in.
  deviceInfo: z
    .object({
      deviceName: z.string().optional(),
      os: z.string().optional(),
      architecture: z.string().optional(),
      deviceType: z.string().optional(),
    })
    .nullable(),
  /** The key the device is bound to: a license key or a script key; null when it is gone. */
  licenseKey: z
    .object({
      licenseKey: z.string(),
      keyType: z.union([z.enum(LICENSE_KEY_TYPES), z.enum(SCRIPT_KEY_TYPES)]),
    })
    .nullable(),
});
export type HardwareBinding = z.infer<typeof HardwareBindingSchema>;

/** A script key's device reset (My key or an admin), in the bindings' history. */
export const BindingResetSchema = z.object({
  id: z.number(),
  scriptKey: z.string(),
  /** buyer | admin */
  by: z.enum(['buyer', 'admin']),
  ipAddress: z.string().nullable(),
  /** Devices the reset removed. */
  removed: z.number(),
  resetAt: z.string(),
});
export type BindingReset = z.infer<typeof BindingResetSchema>;

/** GET /api/admin/hardware/bindings: newest first; `resets` the device resets of the last 30 days, newest first. */
export const HardwareBindingListResponseSchema = z.object({
  bindings: z.array(HardwareBindingSchema),
  resets: z.array(BindingResetSchema),
  count: z.number(),
  timestamp: z.string(),
});
export type HardwareBindingListResponse = z.infer<typeof HardwareBindingListResponseSchema>;

/** POST /api/admin/license/revoke-binding */
export const RevokeBindingSchema = z.object(
  {
    bindingId: idField('bindingId'),
  },
  { error: 'Request body must be a JSON object with bindingId' },
);

export const RevokeBindingResponseSchema = z.object({
  success: z.literal(true),
  binding: HardwareBindingSchema,
});
export type RevokeBindingResponse = z.infer<typeof RevokeBindingResponseSchema>;

export const BINDING_TEXTS = {
  notFound: 'Hardware binding not found',
  alreadyRevoked: 'Hardware binding is already revoked',
} as const;

/** Roblox's client id (RbxAnalyticsService:GetClientId()): a GUID. */
const ROBLOX_CLIENT_ID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

/**
 * What a device was bound by, read from the shape of its id: the loader's bootstrap sends the
 * executor's own hardware id (gethwid()) where the executor has one, else Roblox's client id, which
 * follows the Roblox install rather than the machine (server/features/loader/lua-bootstrap.ts).
 */
export function hardwareIdKind(hardwareId: string): { label: string; explanation: string } {
  if (ROBLOX_CLIENT_ID.test(hardwareId)) {
    return {
      label: 'Roblox client id',
      explanation:
        "The executor has no hardware id of its own, so the device is bound by Roblox's client id (a new Roblox install gets a new one)",
    };
  }
  return {
    label: 'Executor hardware id',
    explanation: "The device is bound by the executor's own hardware id (gethwid)",
  };
}

/** Why a binding shows no device name: nothing in it says one. */
export const NO_DEVICE_NAME = 'The executor sent no device name';
