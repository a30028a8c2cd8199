import { ApiError } from '@/lib/api.ts';
import type { LuaSyntaxErrorResponse } from '../../../../common/scripts.ts';

/**
 * The server's verdict when it refused a save for its Lua syntax (400 with `syntaxError`), else
 * null: other failures are ordinary save failures.
 */
export function luaSyntaxRefusal(error: unknown): LuaSyntaxErrorResponse | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { error: message, syntaxError } = body as Partial<LuaSyntaxErrorResponse>;
  if (typeof message !== 'string' || typeof syntaxError !== 'object' || syntaxError === null) return null;
  const { line, column } = syntaxError;
  if (typeof line !== 'number' || typeof column !== 'number' || typeof syntaxError.message !== 'string') {
    return null;
  }
  return { error: message, syntaxError: { line, column, message: syntaxError.message } };
}
