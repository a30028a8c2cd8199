import { z } from 'zod';
import type { LicenseKey } from '../../../../common/licensing.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import {
  MAX_BINDINGS_RANGE,
  maskRedemptionCode,
  type RedemptionKey,
  redemptionStatus,
} from '../../../../common/redemption.ts';
import { type CreateScriptKeyRequest, SCRIPT_KEY_TYPES } from '../../../../common/script-keys.ts';
import {
  dateTimeToIso,
  FORM_MESSAGES,
  NOTES_MAX,
  numberInRange,
  optionalExpiry,
} from '../shared/form-rules.ts';
import type { SearchableOption } from '../shared/searchable-select.tsx';

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
  expiresAt: optionalExpiry,
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

/*
 * The license key and redemption code pickers: each record masked as its own screen shows it, with
 * its type and status; the search also matches the whole value, the notes and the id. The form
 * still holds (and sends) the id.
 */

export function licenseKeyOptions(keys: readonly LicenseKey[]): SearchableOption<number>[] {
  return keys.map((key) => ({
    value: key.id,
    label: maskLicenseKey(key.licenseKey),
    detail: [key.keyType, key.status, key.notes].filter(Boolean).join(' · '),
    keywords: `${key.licenseKey} #${key.id}`,
  }));
}

/** A code that already became (or backs) a script key is listed but cannot back another. */
export function redemptionCodeOptions(
  codes: readonly RedemptionKey[],
  now: number = Date.now(),
): SearchableOption<number>[] {
  return codes.map((code) => {
    const taken = code.scriptKeyId !== null;
    return {
      value: code.id,
      label: maskRedemptionCode(code.redemptionCode),
      detail: [code.keyType, redemptionStatus(code, now), taken ? 'has a script key' : null, code.notes]
        .filter(Boolean)
        .join(' · '),
      keywords: `${code.redemptionCode} #${code.id}`,
      disabled: taken,
    };
  });
}
