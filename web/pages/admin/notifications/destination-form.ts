import { z } from 'zod';
import {
  DESTINATION_KINDS,
  type Destination,
  type DestinationInput,
  DestinationInputSchema,
  LATE_MODES,
} from '../../../../common/notifications.ts';
import { checkUrlShape, type OutboundPolicy } from '../../../../common/outbound-url.ts';
import { readPetValue } from '../../../../common/pet-value.ts';

/*
 * The Add/Edit destination form. Fields are typed as text (values may be written "10M"), turned into
 * the API's body, and that body is checked by the API's own schema, so the form shows the messages
 * the server would answer with.
 */

export const DestinationFormSchema = z.object({
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  /** Empty on edit keeps the stored URL (the list shows it masked, so it cannot be typed back). */
  url: z.string(),
  minValue: z.string(),
  maxValue: z.string(),
  /** One pet name a line (commas also separate); empty means every pet. */
  petNames: z.string(),
  delaySeconds: z.string(),
  includeJoinData: z.boolean(),
  mentionRoleId: z.string(),
  mentionFromValue: z.string(),
  enabled: z.boolean(),
  /** Seconds; empty: automatic (the tier's default). */
  maxAgeSeconds: z.string(),
  lateMode: z.enum(LATE_MODES),
  /** Operator alerts instead of finds. */
  alerts: z.boolean(),
});
export type DestinationForm = z.infer<typeof DestinationFormSchema>;

export const NEW_DESTINATION_FORM: DestinationForm = {
  name: '',
  kind: 'discord',
  url: '',
  minValue: '0',
  maxValue: '',
  petNames: '',
  delaySeconds: '0',
  includeJoinData: true,
  mentionRoleId: '',
  mentionFromValue: '',
  enabled: true,
  maxAgeSeconds: '',
  lateMode: 'drop',
  alerts: false,
};

/** The form filled with a stored destination; its URL left empty (kept unless retyped). */
export function destinationToForm(destination: Destination): DestinationForm {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    name: destination.name,
    kind: destination.kind,
    url: '',
    minValue: String(destination.minValue),
    maxValue: text(destination.maxValue),
    petNames: destination.petNames.join('\n'),
    delaySeconds: String(destination.delaySeconds),
    includeJoinData: destination.includeJoinData,
    mentionRoleId: destination.mentionRoleId ?? '',
    mentionFromValue: text(destination.mentionFromValue),
    enabled: destination.enabled,
    maxAgeSeconds: text(destination.maxAgeSeconds),
    lateMode: destination.lateMode,
    alerts: destination.alerts,
  };
}

const VALUE_FIELDS = ['minValue', 'maxValue', 'mentionFromValue'] as const;
const VALUE_HINT = 'A value per second, e.g. 1M, 2.5B or 1000000';

/** A typed value: '' is null; "10M", "$1,000,000" and "1.5B/s" read as finds' values do; NaN otherwise. */
function readValue(text: string): number | null {
  if (text.trim() === '') return null;
  return readPetValue(text) ?? Number.NaN;
}

/** The API body for a filled form; on edit with the URL left empty, without `url`. */
export function formToRequest(form: DestinationForm): Partial<DestinationInput> {
  const delay = form.delaySeconds.trim();
  const maxAge = form.maxAgeSeconds.trim();
  const body: Partial<DestinationInput> = {
    name: form.name.trim(),
    kind: form.kind,
    minValue: readValue(form.minValue) ?? 0,
    maxValue: readValue(form.maxValue),
    petNames: form.petNames
      .split(/[\n,]/)
      .map((name) => name.trim())
      .filter(Boolean),
    delaySeconds: delay === '' ? 0 : Number(delay),
    includeJoinData: form.includeJoinData,
    mentionRoleId: form.mentionRoleId.trim() || null,
    mentionFromValue: readValue(form.mentionFromValue),
    enabled: form.enabled,
    maxAgeSeconds: maxAge === '' ? null : Number(maxAge),
    lateMode: form.lateMode,
    alerts: form.alerts,
  };
  if (form.url.trim() !== '') body.url = form.url.trim();
  return body;
}

/**
 * The form's rules: the API's schema over the body the form would send, and the server's URL rules
 * (https, Discord's hosts and path…) under its own settings, `urlPolicy`, once the list has told them
 * (before that the server alone judges the URL). On edit (`keepsUrl`) an empty URL is allowed, since
 * it keeps the stored one.
 */
export function destinationFormSchema(keepsUrl: boolean, urlPolicy?: OutboundPolicy) {
  return DestinationFormSchema.superRefine((form, ctx) => {
    // With the URL even when empty, so an empty one on create reads 'URL is required'.
    const body: Record<string, unknown> = { ...formToRequest(form), url: form.url.trim() };
    for (const field of VALUE_FIELDS) {
      if (!Number.isNaN(body[field])) continue;
      ctx.addIssue({ code: 'custom', path: [field], message: VALUE_HINT });
      // Checked as empty, so the rest of the form still gets its messages (the range rule only runs
      // once every field has the right type).
      body[field] = field === 'minValue' ? 0 : null;
    }
    const result = DestinationInputSchema.safeParse(body);
    const issues = result.success ? [] : result.error.issues;
    for (const issue of issues) {
      const field = String(issue.path[0] ?? 'name');
      if (field === 'url' && keepsUrl && form.url.trim() === '') continue;
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    const url = form.url.trim();
    if (urlPolicy && url !== '' && !issues.some((issue) => issue.path[0] === 'url')) {
      const shape = checkUrlShape(url, form.kind, urlPolicy);
      if ('problem' in shape) ctx.addIssue({ code: 'custom', path: ['url'], message: shape.problem });
    }
  });
}
