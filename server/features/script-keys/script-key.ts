import { randomBytes } from 'node:crypto';

/**
 * A new script key, e.g. SK-3f9a…: 32 random bytes as hex. The key is also the HMAC secret of the
 * loader's challenge mode, so it carries a full 256 bits.
 */
export function generateScriptKey(): string {
  return `SK-${randomBytes(32).toString('hex')}`;
}
