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
