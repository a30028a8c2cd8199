import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The order link (with its secret) sealed with the buyer's e-mail: the server keeps only the
 * secret's hash for the order page, so a lost link can be given back only by someone who brings the
 * e-mail it was sealed with (the lookup, with the invoice id from BTCPay's receipt) or by the order
 * mail, which goes to that e-mail. AES-256-GCM under a key derived (HKDF-SHA256) from the e-mail,
 * salted with the order id. Pure: no I/O.
 */

/** The e-mail as the key is made from it: trimmed and lower-cased (mail providers ignore the case). */
export const normalizedEmail = (email: string) => email.trim().toLowerCase();

function keyOf(email: string, orderId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', normalizedEmail(email), orderId, 'scanline order link', 32));
}

/** The link, sealed: base64url of iv (12) + tag (16) + ciphertext. */
export function sealOrderLink(link: string, email: string, orderId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(email, orderId), iv);
  const sealed = Buffer.concat([cipher.update(link, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The link, when `email` is the one it was sealed with; null otherwise. */
export function openOrderLink(sealed: string, email: string, orderId: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(email, orderId), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Spends the time a real lookup would (the same answer for an unknown invoice as for a wrong e-mail). */
export function spendLookupTime(email: string): void {
  openOrderLink(randomBytes(40).toString('base64url'), email, 'no-such-order-00');
}
