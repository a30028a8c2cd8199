import { z } from 'zod';
import { MAX_BINDINGS_RANGE } from '../../../../common/redemption.ts';
import { type CreateScriptKeyRequest, SCRIPT_KEY_TYPES } from '../../../../common/script-keys.ts';
import {
  dateTimeToIso,
  FORM_MESSAGES,
  NOTES_MAX,
  numberInRange,
  optionalDateTime,
} from '../redemption-codes/redemption-form.ts';

/** An optional id typed in a text field: empty is null, anything else must read as a number. */
export function parseOptionalId(raw: unknown): number | null {
  const text = String(raw ?? '').trim();
  return text === '' ? null : Number(text);
}

const optionalId = z
  .number({ error: FORM_MESSAGES.notANumber })
  .int(FORM_MESSAGES.integer)
  .positive(FORM_MESSAGES.positive)
  .nullable();

/** The Create Script Key form as typed (ids null when empty, the expiry a local date-time or ''). */
export const CreateScriptKeyFormSchema = z.object({
  scriptType: z.enum(SCRIPT_KEY_TYPES, { error: FORM_MESSAGES.required }),
  licenseKeyId: optionalId,
  redemptionKeyId: optionalId,
  maxHardwareBindings: numberInRange(MAX_BINDINGS_RANGE),
  expiresAt: optionalDateTime,
  notes: z.string().max(NOTES_MAX, FORM_MESSAGES.maxLength(NOTES_MAX)),
});
export type CreateScriptKeyForm = z.infer<typeof CreateScriptKeyFormSchema>;

export const CREATE_SCRIPT_KEY_DEFAULTS: CreateScriptKeyForm = {
  scriptType: 'PREMIUM',
  licenseKeyId: null,
  redemptionKeyId: null,
  maxHardwareBindings: MAX_BINDINGS_RANGE.default,
  expiresAt: '',
  notes: '',
};

/** The spec's payload (ids or null, expiry ISO or null, isActive 1) plus the binding limit and notes. */
export function toCreateScriptKeyRequest(form: CreateScriptKeyForm): CreateScriptKeyRequest {
  return {
    licenseKeyId: form.licenseKeyId,
    redemptionKeyId: form.redemptionKeyId,
    scriptType: form.scriptType,
    expiresAt: dateTimeToIso(form.expiresAt),
    isActive: 1,
    maxHardwareBindings: form.maxHardwareBindings,
    notes: form.notes.trim() || null,
  };
}
