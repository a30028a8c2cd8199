import { badRequest } from '../../http-error.ts';

/**
 * The expiry an admin gave a new key or code (ISO, validated by the schema), as epoch ms, or null
 * for none. One already past is refused with `pastText`.
 */
export function futureExpiry(iso: string | null | undefined, now: number, pastText: string): number | null {
  if (!iso) return null;
  const expiresAt = Date.parse(iso);
  if (Number.isNaN(expiresAt)) throw badRequest('expiresAt must be an ISO date-time');
  if (expiresAt <= now) throw badRequest(pastText);
  return expiresAt;
}
