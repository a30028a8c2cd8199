import { z } from 'zod';
import {
  BOT_PARAMETER_NAMES,
  BOT_PARAMETER_RANGES,
  type BotParameterName,
  type BotParameters,
  MAX_PET_VALUE,
  MAX_REASON_LENGTH,
  parameterConflict,
  type RangedParameter,
} from '../../../../common/configuration.ts';

/*
 * The Parameters tab's form: every bot parameter as the admin types it (numbers as text, so a
 * half-typed value stays on screen), checked against the spec's ranges before anything is sent.
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

/** The form's values: numbers as typed, stealth mode as a switch. */
export type ParameterDraft = Record<NumericParameter, string> & { stealthMode: boolean };

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

export function draftOf(parameters: BotParameters): ParameterDraft {
  const draft = { stealthMode: parameters.stealthMode } as ParameterDraft;
  for (const name of BOT_PARAMETER_NAMES) {
    if (name !== 'stealthMode') draft[name] = String(parameters[name]);
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

const numericShape = Object.fromEntries(
  BOT_PARAMETER_NAMES.filter((name): name is NumericParameter => name !== 'stealthMode').map((name) => [
    name,
    numericField(name),
  ]),
) as Record<NumericParameter, ReturnType<typeof numericField>>;

/**
 * The whole form: the draft, checked and turned into the parameters Apply Changes sends, and the
 * optional reason.
 */
export const ParameterFormSchema = z
  .object({
    ...numericShape,
    stealthMode: z.boolean(),
    reason: z.string().max(MAX_REASON_LENGTH, `Reason must be at most ${MAX_REASON_LENGTH} characters`),
  })
  .superRefine((values, ctx) => {
    // The one rule across fields, worded as the server words it.
    const conflict = parameterConflict(values);
    if (conflict) ctx.addIssue({ code: 'custom', path: ['maxPetValue'], message: conflict });
  });
export type ParameterFormInput = z.input<typeof ParameterFormSchema>;
export type ParameterFormOutput = z.output<typeof ParameterFormSchema>;

/** The form's values for `parameters`, with an empty reason. */
export function formValuesOf(parameters: BotParameters): ParameterFormInput {
  return { ...draftOf(parameters), reason: '' };
}

/** The parameters of a checked form, without the reason. */
export function parametersOf({ reason: _reason, ...parameters }: ParameterFormOutput): BotParameters {
  return parameters;
}
