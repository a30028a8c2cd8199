import { z } from 'zod';

/**
 * The body of every refused or failed call: what is wrong, in words. Some answers add details
 * (a validation's `issues`, a Lua `syntaxError`), so extra fields pass through.
 */
export const ApiErrorSchema = z
  .looseObject({ error: z.string() })
  .meta({ id: 'ApiError', description: 'What is wrong with the call, in words' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** `{ success: true }`: the answer of a call whose only result is that it happened. */
export const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });
