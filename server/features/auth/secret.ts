import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/*
 * Checking a candidate against the stored hash costs one scrypt (65–85 ms of CPU). It runs on
 * libuv's thread pool (async `scrypt`), never on the event loop, and at most MAX_RUNNING_VERIFICATIONS
 * at once: the pool has 4 threads by default and file and DNS work share them, and the machine this
 * runs on may have 2 cores. Up to MAX_WAITING_VERIFICATIONS more wait their turn (under a second);
 * beyond that a check is refused at once (VerificationsBusyError) instead of queueing without end,
 * so a flood of wrong logins costs a bounded amount of CPU and memory and public pages stay fast.
 */
export const MAX_RUNNING_VERIFICATIONS = 2;
export const MAX_WAITING_VERIFICATIONS = 16;

/** Thrown by verifySecretHash when MAX_WAITING_VERIFICATIONS checks are already waiting. */
export class VerificationsBusyError extends Error {
  constructor() {
    super('too many secret verifications waiting');
  }
}

/** A counting semaphore with a bounded queue; a finished task hands its slot to the next waiter. */
class VerificationSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < MAX_RUNNING_VERIFICATIONS) {
      this.running += 1;
    } else {
      if (this.waiting.length >= MAX_WAITING_VERIFICATIONS) throw new VerificationsBusyError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** Per process: the thread pool the hashes run on is. */
const verifications = new VerificationSlots();

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

/** Whether `secret` matches the stored hash; throws VerificationsBusyError when too many checks wait. */
export async function verifySecretHash(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length === 0) return false;
  return verifications.run(async () => {
    const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length);
    return timingSafeEqual(actual, expected);
  });
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
