import { ApiError } from '@/lib/api.ts';

/** The text to show for a failed call: the server's `{error}` when it sent one, else the message. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage;
  return error instanceof Error ? error.message : String(error);
}
