import { z } from 'zod';
import {
  BOT_PARAMETER_NAMES,
  BOT_PARAMETER_RANGES,
  type BotParameterName,
  type BotParameters,
  type BotParameterUpdates,
  DEFAULT_BOT_PARAMETERS,
  MAX_PET_VALUE,
  MAX_REASON_LENGTH,
  parameterConflict,
  type RangedParameter,
} from '../../../../common/configuration.ts';

/*
 * The Parameters tab's form: every bot parameter as the admin types it (numbers as text, so a
 * half-typed value stays on screen), starting from the selected bots' values. Only the fields the
 * admin changes are checked against the spec's ranges and sent; each bot keeps its other values.
 */

/** A whole number as typed (a sign, digits, spaces around). */
const WHOLE_NUMBER = /^\s*-?\d+\s*$/;

/** What each parameter is called on screen and in its error. */
export const PARAMETER_LABELS: Record<BotParameterName, string> = {
  hopFrequencyMs: 'Hop Frequency (ms)',
  hopDelayMs: 'Hop Delay (ms)',
  hopCooldownMs: 'Hop Cooldown (ms)',
  minPetValue: 'Min Pet Value',
  maxPetValue: 'Max Pet Value',
  targetPetValue: 'Target Pet Value',
  stealthMode: 'Stealth Mode',
  maxRetryAttempts: 'Max Retry Attempts',
  errorThreshold: 'Error Threshold',
  batchSize: 'Batch Size',
  connectionLimit: 'Connection Limit',
  rateLimit: 'Rate Limit (requests/min)',
};

/** The spec's four control groups, in its order. */
export const PARAMETER_GROUPS = [
  {
    title: 'Hop Timing',
    description: 'How often bots move to a new server, and how long they wait around a hop.',
    fields: ['hopFrequencyMs', 'hopDelayMs', 'hopCooldownMs'],
  },
  {
    title: 'Pet Value Thresholds',
    description: 'Which finds bots report, in the game currency per second.',
    fields: ['minPetValue', 'maxPetValue', 'targetPetValue'],
  },
  {
    title: 'Scanner Behaviour',
    description: 'Stealth, retries and how many errors a bot tolerates.',
    fields: ['stealthMode', 'maxRetryAttempts', 'errorThreshold', 'batchSize'],
  },
  {
    title: 'Network Performance',
    description: 'Connections and requests each bot may use.',
    fields: ['connectionLimit', 'rateLimit'],
  },
] as const satisfies ReadonlyArray<{
  title: string;
  description: string;
  fields: readonly BotParameterName[];
}>;

export type NumericParameter = Exclude<BotParameterName, 'stealthMode'>;

/** The limits a numeric field accepts (pet values: 0 up to the largest the bots take). */
export function parameterLimits(field: NumericParameter): { min: number; max: number; step: number } {
  if (field in BOT_PARAMETER_RANGES) return BOT_PARAMETER_RANGES[field as RangedParameter];
  return { min: 0, max: MAX_PET_VALUE, step: 1 };
}

const PET_FIELDS: readonly NumericParameter[] = ['minPetValue', 'maxPetValue', 'targetPetValue'];

/**
 * The hint under a field: its range (and step, where the spec gives one); for a pet value, what the
 * typed number reads as ('$1.5M/s'), since six-digit values are easy to mistype.
 */
export function parameterHint(field: NumericParameter, raw: string): string {
  if (!PET_FIELDS.includes(field)) {
    const { min, max, step } = parameterLimits(field);
    return step > 1 ? `${min}–${max}, step ${step}` : `${min}–${max}`;
  }
  const value = WHOLE_NUMBER.test(raw) ? Number.parseInt(raw, 10) : Number.NaN;
  if (field === 'maxPetValue' && value === 0) return '0 = unlimited';
  const reads =
    value >= 0 ? `$${value.toLocaleString('en-US', { notation: 'compact' })}/s` : 'A whole number';
  return field === 'maxPetValue' ? `${reads} (0 = unlimited)` : reads;
}

/** A parameter the selected bots do not share: shown empty (numbers) or neither on nor off, and kept. */
export const MIXED = 'mixed';

/** The selected bots' values: the one each parameter has on all of them, else MIXED. */
export type SelectionValues = { [K in BotParameterName]: BotParameters[K] | typeof MIXED };

/**
 * What the form starts from: the selected bots' current values, or the spec's defaults when no
 * bot is selected.
 */
export function selectionValuesOf(selection: readonly BotParameters[]): SelectionValues {
  const [first, ...rest] = selection.length > 0 ? selection : [DEFAULT_BOT_PARAMETERS];
  const values = { ...first } as SelectionValues;
  for (const name of BOT_PARAMETER_NAMES) {
    if (rest.some((bot) => bot[name] !== first[name])) (values as Record<string, unknown>)[name] = MIXED;
  }
  return values;
}

/** How a mixed parameter varies across the selection, for its hint ('5000–15000', 'on for 2 of 3'). */
export function mixedRange(selection: readonly BotParameters[], name: BotParameterName): string {
  if (name === 'stealthMode') {
    const on = selection.filter((bot) => bot.stealthMode).length;
    return `on for ${on} of ${selection.length}`;
  }
  const values = selection.map((bot) => bot[name]);
  return `${Math.min(...values)}–${Math.max(...values)}`;
}

/** The form's values: numbers as typed ('' for a mixed one), stealth mode as a switch or MIXED. */
export type ParameterDraft = Record<NumericParameter, string> & { stealthMode: boolean | typeof MIXED };

export function draftOf(values: SelectionValues | BotParameters): ParameterDraft {
  const draft = { stealthMode: values.stealthMode } as ParameterDraft;
  for (const name of BOT_PARAMETER_NAMES) {
    if (name === 'stealthMode') continue;
    const value = values[name];
    draft[name] = value === MIXED ? '' : String(value);
  }
  return draft;
}

/** A typed value as a whole number within the field's limits; the message names the field and its range. */
function numericField(field: NumericParameter) {
  const label = PARAMETER_LABELS[field];
  const { min, max } = parameterLimits(field);
  const range =
    field === 'maxPetValue'
      ? `${label} must be 0 (unlimited) or up to ${max}`
      : `${label} must be from ${min} to ${max}`;
  return z
    .string()
    .refine((raw) => WHOLE_NUMBER.test(raw), `${label} must be a whole number from ${min} to ${max}`)
    .transform((raw) => Number.parseInt(raw, 10))
    .refine((value) => value >= min && value <= max, range);
}

const NUMERIC_NAMES = BOT_PARAMETER_NAMES.filter((name): name is NumericParameter => name !== 'stealthMode');
const numericFields = Object.fromEntries(NUMERIC_NAMES.map((name) => [name, numericField(name)])) as Record<
  NumericParameter,
  ReturnType<typeof numericField>
>;

/** A typed value left as the selection has it: the same text, or the same whole number. */
export function unchanged(raw: string, start: string): boolean {
  if (raw.trim() === start) return true;
  return (
    WHOLE_NUMBER.test(raw) &&
    WHOLE_NUMBER.test(start) &&
    Number.parseInt(raw, 10) === Number.parseInt(start, 10)
  );
}

/** The fields of `draft` that differ from `start`, checked: the updates to send, or what is wrong. */
export function readChanges(
  draft: ParameterDraft,
  start: ParameterDraft,
  selection: readonly BotParameters[],
): { updates: BotParameterUpdates; errors: Array<{ field: BotParameterName; message: string }> } {
  const updates: BotParameterUpdates = {};
  const errors: Array<{ field: BotParameterName; message: string }> = [];
  for (const name of NUMERIC_NAMES) {
    if (unchanged(draft[name], start[name])) continue;
    const parsed = numericFields[name].safeParse(draft[name]);
    if (parsed.success) updates[name] = parsed.data;
    else errors.push({ field: name, message: parsed.error.issues[0]?.message ?? 'Invalid value' });
  }
  if (draft.stealthMode !== start.stealthMode && draft.stealthMode !== MIXED) {
    updates.stealthMode = draft.stealthMode;
  }
  // The one rule across fields, on each bot's values as they would become, worded as the server words it.
  if (('minPetValue' in updates || 'maxPetValue' in updates) && errors.length === 0) {
    const bots = selection.length > 0 ? selection : [DEFAULT_BOT_PARAMETERS];
    const conflict = bots.map((bot) => parameterConflict({ ...bot, ...updates })).find(Boolean);
    if (conflict) {
      errors.push({ field: 'maxPetValue' in updates ? 'maxPetValue' : 'minPetValue', message: conflict });
    }
  }
  return { updates, errors };
}

const ReasonSchema = z
  .string()
  .max(MAX_REASON_LENGTH, `Reason must be at most ${MAX_REASON_LENGTH} characters`);

/**
 * The form checked against where it started (`start`, the selection's values): only the fields the
 * admin changed are checked and sent; a mixed field left empty keeps each bot's own value.
 */
export function parameterChangesSchema(start: ParameterDraft, selection: readonly BotParameters[]) {
  return z
    .object({
      ...(Object.fromEntries(NUMERIC_NAMES.map((name) => [name, z.string()])) as Record<
        NumericParameter,
        z.ZodString
      >),
      stealthMode: z.union([z.boolean(), z.literal(MIXED)]),
      reason: ReasonSchema,
    })
    .superRefine(({ reason: _reason, ...draft }, ctx) => {
      for (const { field, message } of readChanges(draft, start, selection).errors) {
        ctx.addIssue({ code: 'custom', path: [field], message });
      }
    })
    .transform(({ reason, ...draft }) => ({
      updates: readChanges(draft, start, selection).updates,
      reason: reason.trim(),
    }));
}
export type ParameterFormInput = ParameterDraft & { reason: string };
export type ParameterFormOutput = { updates: BotParameterUpdates; reason: string };

/** The form's values for `values`, with an empty reason. */
export function formValuesOf(values: SelectionValues | BotParameters): ParameterFormInput {
  return { ...draftOf(values), reason: '' };
}
