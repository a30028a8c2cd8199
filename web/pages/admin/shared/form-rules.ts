import { z } from 'zod';

/**
 * The spec asks for generic form-default messages, worded as the classic zod defaults
 * ('Number must be greater than or equal to 1'); zod 4 words its own defaults differently,
 * so they are spelled out here. The redemption code and script key forms use them.
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
  /** The API refuses an expiry that is not ahead ('expiresAt must be in the future'): said before sending. */
  expiryInPast: 'The expiry must be in the future',
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

/** Whether a datetime-local value names a moment already past (a readable one; '' is no moment). */
export function isPastDateTime(value: string, now: number = Date.now()): boolean {
  const time = new Date(value).getTime();
  return value !== '' && !Number.isNaN(time) && time <= now;
}

/** An expiry as typed: empty (none), or a date the browser can read that is still ahead. */
export const optionalExpiry = optionalDateTime.refine((v) => !isPastDateTime(v), FORM_MESSAGES.expiryInPast);

/** A datetime-local value on the wire: ISO, or null when empty. */
export const dateTimeToIso = (value: string): string | null => (value ? new Date(value).toISOString() : null);

/** A whole number within `limits`, refused with the generic messages. */
export const numberInRange = (limits: { min: number; max: number }) =>
  z
    .number({ error: FORM_MESSAGES.required })
    .int(FORM_MESSAGES.integer)
    .min(limits.min, FORM_MESSAGES.atLeast(limits.min))
    .max(limits.max, FORM_MESSAGES.atMost(limits.max));
