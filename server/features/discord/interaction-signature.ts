import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/**
 * How far `X-Signature-Timestamp` may lie from this server's clock, either way. Discord signs each
 * interaction the moment it sends it and gives up on an answer after 3 s, so a genuine request is
 * seconds old; a captured one replayed later (its signature stays valid forever) is refused once it
 * is older than this. Five minutes leaves room for clock skew between Discord and this server (the
 * same tolerance Stripe's webhook signatures default to).
 */
export const INTERACTION_MAX_AGE_S = 5 * 60;

/** An Ed25519 public key in DER SPKI form is this fixed prefix followed by the 32 raw key bytes (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Keys built once per distinct hex value (the settings are read per request; the key seldom changes). */
const keys = new Map<string, KeyObject>();

/** The application's public key (64 hex characters, as the Developer Portal shows it) as a Node key. */
export function ed25519PublicKey(hex: string): KeyObject {
  let key = keys.get(hex);
  if (!key) {
    const der = Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]);
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    if (keys.size > 8) keys.clear();
    keys.set(hex, key);
  }
  return key;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Discord's check: `X-Signature-Ed25519` is the hex Ed25519 signature of `X-Signature-Timestamp`
 * followed by the raw body. Also refuses a timestamp outside INTERACTION_MAX_AGE_S of `nowMs`.
 */
export function checkInteractionSignature(
  publicKeyHex: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: Buffer,
  nowMs: number,
): SignatureCheck {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp)
    return { ok: false, reason: 'X-Signature-Ed25519 and X-Signature-Timestamp are required' };
  if (!/^[0-9a-fA-F]{128}$/.test(signature))
    return { ok: false, reason: 'X-Signature-Ed25519 is not a signature' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'X-Signature-Timestamp is not a Unix time' };
  const signed = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
  const valid = verify(null, signed, ed25519PublicKey(publicKeyHex), Buffer.from(signature, 'hex'));
  if (!valid) return { ok: false, reason: 'invalid request signature' };
  const ageS = Math.abs(nowMs / 1000 - Number(timestamp));
  if (ageS > INTERACTION_MAX_AGE_S) {
    return {
      ok: false,
      reason: `X-Signature-Timestamp is more than ${INTERACTION_MAX_AGE_S} s away from now`,
    };
  }
  return { ok: true };
}
