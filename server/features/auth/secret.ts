import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/*
 * Checking a candidate against the stored hash costs one scrypt (65–85 ms of CPU). It runs on
 * libuv's thread pool (async `scrypt`), never on the event loop; how many run at once and wait is
 * the login check queue's business (login-check-queue.ts).
 */

function scryptAsync(secret: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, length, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** scrypt with a random salt, stored as `scrypt$<salt>$<hash>` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

function parseStored(stored: string): { salt: Buffer; hash: Buffer } | null {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return null;
  const parsed = { salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  return parsed.salt.length > 0 && parsed.hash.length > 0 ? parsed : null;
}

/** Whether `secret` matches the stored hash: one scrypt, on the thread pool. */
export async function verifySecretHash(secret: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const actual = await scryptAsync(secret, parsed.salt, parsed.hash.length);
  return timingSafeEqual(actual, parsed.hash);
}

/** 32 bits: a wrong guess passes one time in 4 billion, and 160 of a generated secret's 192 stay unknown. */
const CHECK_BYTES = 4;

/**
 * A generated secret's check value: the first 4 bytes of HMAC-SHA256 keyed with its hash's salt.
 * Stored beside the hash, it lets a login turn away nearly every wrong guess in microseconds, so
 * only the right secret (and one wrong guess in 4 billion) costs a scrypt. Only for generated,
 * random secrets: for a chosen password it would let a stolen row be guessed at SHA-256 speed.
 */
export function secretCheckOf(secret: string, stored: string): string | null {
  const parsed = parseStored(stored);
  if (!parsed) return null;
  return createHmac('sha256', parsed.salt)
    .update(secret)
    .digest()
    .subarray(0, CHECK_BYTES)
    .toString('base64url');
}

/** Whether `candidate` has the stored check value (constant time); a wrong one cannot be the secret. */
export function passesSecretCheck(candidate: string, stored: string, check: string): boolean {
  const actual = secretCheckOf(candidate, stored);
  const expected = Buffer.from(check, 'base64url');
  return (
    actual !== null &&
    expected.length === CHECK_BYTES &&
    timingSafeEqual(Buffer.from(actual, 'base64url'), expected)
  );
}

/** Compares two secrets in constant time, whatever their lengths (digests have equal length). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
