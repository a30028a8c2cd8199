import type { ZodType } from 'zod';
import { ApiErrorSchema } from '../../common/api-error.ts';

/** Every route's refusals and failures: `{error}` for any 4xx or 5xx (errors.ts sends them). */
export const errorResponses = { '4xx': ApiErrorSchema, '5xx': ApiErrorSchema } as const;

/**
 * A route's response schemas: its own answers by status, plus the `{error}` shape for 4xx and 5xx.
 * `schema: { response: responses({ 200: ThingSchema }) }` serializes the answer by its schema and
 * describes it in the OpenAPI document.
 */
export function responses<Answers extends Record<number, ZodType>>(
  answers: Answers,
): Answers & typeof errorResponses {
  return { ...answers, ...errorResponses };
}
