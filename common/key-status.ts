import { z } from 'zod';
import { SCRIPT_KEY_TYPES, ScriptKeySchema } from './script-keys.ts';

/**
 * A buyer's own key: what My key (/key) and the universal script send. Never put it in a URL. Any of
 * the script key, its license key, the code that made or renewed it, or its order link
 * (…/order/{id}#{secret}).
 */
export const KeyStatusRequestSchema = z.object(
  { key: z.string({ error: 'key must be text' }).max(256, 'key must be at most 256 characters') },
  { error: 'Request body must be a JSON object with key' },
);
export type KeyStatusRequest = z.infer<typeof KeyStatusRequestSchema>;

/** The statuses a buyer sees (scriptKeyDisplayStatus). */
export const KEY_STATUSES = ['Active', 'Inactive', 'Expired'] as const;

/** A device bound to the key; its id masked so the page never shows a whole hardware id. */
export const KeyDeviceSchema = z
  .object({ id: z.string(), firstSeen: z.string(), lastSeen: z.string() })
  .meta({ id: 'KeyDevice' });
export type KeyDevice = z.infer<typeof KeyDeviceSchema>;

/** POST /api/script/key-status (times ISO strings; expiresAt null: never expires). */
export const KeyStatusResponseSchema = z
  .object({
    type: z.enum(SCRIPT_KEY_TYPES),
    status: z.enum(KEY_STATUSES),
    /** Why the key was switched off, when the server did it (key sharing); null otherwise. */
    disabledReason: z.string().nullable(),
    expiresAt: z.string().nullable(),
    maxDevices: z.number().int(),
    devices: z.array(KeyDeviceSchema),
    /** Weekly budget left plus extra resets an admin granted. */
    resetsLeft: z.number().int(),
    /** When another reset becomes possible; null when one is possible now (or the budget is 0 and no reset ever was). */
    nextResetAt: z.string().nullable(),
    /**
     * The whole script key (what the loader snippet and the universal script take). Present because
     * what was given (the key, its license key, the used code or the order link) proves ownership.
     */
    scriptKey: z.string().optional(),
  })
  .meta({ id: 'KeyStatus' });
export type KeyStatusResponse = z.infer<typeof KeyStatusResponseSchema>;

/** POST /api/script/reset-hwid: how many devices went, and the budget after this reset. */
export const ResetHwidResponseSchema = z
  .object({ removed: z.number().int(), resetsLeft: z.number().int(), nextResetAt: z.string().nullable() })
  .meta({ id: 'ResetHwid' });
export type ResetHwidResponse = z.infer<typeof ResetHwidResponseSchema>;

/** 429 from reset-hwid: no reset left; nextResetAt says when one will be (null: never, budget 0). */
export const ResetHwidRefusedSchema = z
  .object({ error: z.string(), nextResetAt: z.string().nullable() })
  .meta({ id: 'ResetHwidRefused' });
export type ResetHwidRefused = z.infer<typeof ResetHwidRefusedSchema>;

/** Reset budget: counted over a rolling window of this length. */
export const HWID_RESET_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export const GRANT_RESETS_RANGE = { min: 1, max: 10 } as const;

/** POST /api/admin/script-keys/{id}/grant-resets */
export const GrantResetsSchema = z.object(
  {
    count: z
      .number({ error: 'count must be a number' })
      .int('count must be a whole number')
      .min(GRANT_RESETS_RANGE.min, 'count must be between 1 and 10')
      .max(GRANT_RESETS_RANGE.max, 'count must be between 1 and 10'),
  },
  { error: 'Request body must be a JSON object with count' },
);
export type GrantResetsRequest = z.infer<typeof GrantResetsSchema>;

/** The grant's answer: the script key with its unused extra resets. */
export const GrantResetsResponseSchema = z
  .object({ scriptKey: ScriptKeySchema.extend({ extraResets: z.number().int() }) })
  .meta({ id: 'ScriptKeyResetsGranted' });
export type GrantResetsResponse = z.infer<typeof GrantResetsResponseSchema>;

export const KEY_STATUS_TEXTS = {
  /** One answer for unknown, wrong-case and malformed keys, so the page reveals nothing about keys. */
  notFound: 'Key not found',
  /** 403 from reset-hwid. */
  expired: 'This key has expired; it cannot reset its devices',
  inactive: 'This key is switched off; it cannot reset its devices',
  /** 429 from reset-hwid. */
  noResetsLeft: 'No device reset left',
  /** The loader's device-limit answer ends with this, then the site's /key address. */
  resetHint: 'Reset your devices at',
} as const;

/** Where a buyer resets their devices (the public My key page). */
export const KEY_PAGE_PATH = '/key';
