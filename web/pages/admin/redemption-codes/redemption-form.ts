import { z } from 'zod';
import {
  type CreateRedemptionKeyRequest,
  MAX_BINDINGS_RANGE,
  REDEMPTION_KEY_TYPES,
  VALIDITY_HOURS_RANGE,
} from '../../../../common/redemption.ts';
import {
  dateTimeToIso,
  FORM_MESSAGES,
  NOTES_MAX,
  numberInRange,
  optionalExpiry,
} from '../shared/form-rules.ts';

/** The Create Redemption Code form as typed (the expiry a local date-time, '' for none). */
export const CreateRedemptionCodeFormSchema = z.object({
  keyType: z.enum(REDEMPTION_KEY_TYPES, { error: FORM_MESSAGES.required }),
  maxHardwareBindings: numberInRange(MAX_BINDINGS_RANGE),
  validityDuration: numberInRange(VALIDITY_HOURS_RANGE),
  expiresAt: optionalExpiry,
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
