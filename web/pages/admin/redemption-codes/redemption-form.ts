import { z } from 'zod';
import {
  type CreateRedemptionKeyRequest,
  MAX_BINDINGS_RANGE,
  REDEMPTION_KEY_TYPES,
  VALIDITY_HOURS_RANGE,
} from '../../../../common/redemption.ts';

/**
 * The spec asks for generic form-default messages, worded as the classic zod defaults
 * ('Number must be greater than or equal to 1'); zod 4 words its own defaults differently,
 * so they are spelled out here. The script key form uses them too.
 */
export const FORM_MESSAGES = {
  required: 'Required',
  atLeast: (min: number) => `Number must be greater than or equal to ${min}`,
  atMost: (max: number) => `Number must be less than or equal to ${max}`,
  positive: 'Number must be greater than 0',
  integer: 'Expected integer, received float',
  maxLength: (max: number) => `String must contain at most ${max} character(s)`,
  notANumber: 'Expected number, received nan',
  invalidDate: 'Invalid date',
} as const;

/** Notes longer than the API accepts are refused in the form already. */
export const NOTES_MAX = 1000;

/** A whole number typed in a number field; anything unparsable (empty included) reads as `fallback`. */
export function parseWholeNumber(raw: unknown, fallback: number): number {
  const parsed = typeof raw === 'number' ? Math.trunc(raw) : Number.parseInt(String(raw), 10);
  return Number.isNaN(parsed) ? fallback : parsed;
}

/** A datetime-local value: empty (no expiry) or a date the browser can read. */
export const optionalDateTime = z
  .string()
  .refine((v) => v === '' || !Number.isNaN(new Date(v).getTime()), FORM_MESSAGES.invalidDate);

/** A datetime-local value on the wire: ISO, or null when empty. */
export const dateTimeToIso = (value: string): string | null => (value ? new Date(value).toISOString() : null);

/** A whole number within `limits`, refused with the generic messages. */
export const numberInRange = (limits: { min: number; max: number }) =>
  z
    .number({ error: FORM_MESSAGES.required })
    .int(FORM_MESSAGES.integer)
    .min(limits.min, FORM_MESSAGES.atLeast(limits.min))
    .max(limits.max, FORM_MESSAGES.atMost(limits.max));

/** The Create Redemption Code form as typed (the expiry a local date-time, '' for none). */
export const CreateRedemptionCodeFormSchema = z.object({
  keyType: z.enum(REDEMPTION_KEY_TYPES, { error: FORM_MESSAGES.required }),
  maxHardwareBindings: numberInRange(MAX_BINDINGS_RANGE),
  validityDuration: numberInRange(VALIDITY_HOURS_RANGE),
  expiresAt: optionalDateTime,
  notes: z.string().max(NOTES_MAX, FORM_MESSAGES.maxLength(NOTES_MAX)),
});
export type CreateRedemptionCodeForm = z.infer<typeof CreateRedemptionCodeFormSchema>;

export const CREATE_REDEMPTION_CODE_DEFAULTS: CreateRedemptionCodeForm = {
  keyType: 'PREMIUM',
  maxHardwareBindings: MAX_BINDINGS_RANGE.default,
  validityDuration: VALIDITY_HOURS_RANGE.default,
  expiresAt: '',
  notes: '',
};

/** The API request for a filled form: the expiry as ISO or null, blank notes as null. */
export function toCreateRedemptionKeyRequest(form: CreateRedemptionCodeForm): CreateRedemptionKeyRequest {
  return {
    keyType: form.keyType,
    expiresAt: dateTimeToIso(form.expiresAt),
    maxHardwareBindings: form.maxHardwareBindings,
    validityDuration: form.validityDuration,
    notes: form.notes.trim() || null,
  };
}
