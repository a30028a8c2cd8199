import { z } from 'zod';
import { scriptFilenameProblem } from '../../../common/scripts.ts';

/** A script name as the routes take it: the same rules as a new file's name (no paths, .lua only). */
export const ScriptFilenameSchema = z.string({ error: 'filename is required' }).superRefine((name, ctx) => {
  const problem = scriptFilenameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** `:filename` (URL-decoded by the router, so 'a%2Fb.lua' arrives as 'a/b.lua' and is refused). */
export const FilenameParamsSchema = z.object({ filename: ScriptFilenameSchema });

/** GET /api/admin/scripts/{filename}/versions[?limit=N]: the newest N versions (all without it). */
export const ScriptVersionsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 1000')
    .max(1000, 'limit must be between 1 and 1000')
    .optional(),
});

/** GET /api/script/loader?script=NAME[&key=KEY][&hwid=ID][&nonce=N&sig=HEX] */
export const LoaderQuerySchema = z.object({
  script: ScriptFilenameSchema,
  key: z.string().min(1, 'key must not be empty').max(200, 'key must be at most 200 characters').optional(),
  hwid: z
    .string()
    .min(1, 'hwid must not be empty')
    .max(200, 'hwid must be at most 200 characters')
    .optional(),
  /** Challenge mode: a nonce from POST /api/script/challenge… */
  nonce: z
    .string()
    .min(1, 'nonce must not be empty')
    .max(100, 'nonce must be at most 100 characters')
    .optional(),
  /** …and hex(HMAC-SHA256(key, nonce + hwid + script)). */
  sig: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'sig must be 64 hexadecimal characters (HMAC-SHA256)')
    .optional(),
});

export type LoaderQuery = z.infer<typeof LoaderQuerySchema>;

const SIG = /^[0-9a-fA-F]{64}$/;
/** An optional text field within `max` characters, as the schema takes it (a repeated field is an array). */
const fits = (value: unknown, max: number) =>
  value === undefined || (typeof value === 'string' && value.length >= 1 && value.length <= max);

/**
 * LoaderQuerySchema.safeParse, with the common case checked by hand first: a query the schema takes
 * comes back as the schema would return it, without zod (its parse was the largest cost left in a
 * warm loader call); anything else goes to the schema, whose refusal names the field.
 */
export function parseLoaderQuery(query: unknown): ReturnType<typeof LoaderQuerySchema.safeParse> {
  const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const { script, key, hwid, nonce, sig } = q;
  const valid =
    typeof script === 'string' &&
    scriptFilenameProblem(script) === null &&
    fits(key, 200) &&
    fits(hwid, 200) &&
    fits(nonce, 100) &&
    (sig === undefined || (typeof sig === 'string' && SIG.test(sig)));
  if (!valid) return LoaderQuerySchema.safeParse(query);
  const data: LoaderQuery = { script };
  if (key !== undefined) data.key = key as string;
  if (hwid !== undefined) data.hwid = hwid as string;
  if (nonce !== undefined) data.nonce = nonce as string;
  if (sig !== undefined) data.sig = sig as string;
  return { success: true, data };
}
