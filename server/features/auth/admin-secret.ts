import type { AppContext } from '../../context.ts';
import { findAdminCredentials, insertAdminSecretHash, setAdminSecretCheck } from './auth.store.ts';
import { LoginCheckQueue, LoginCheckRefused, type LoginLane } from './login-check-queue.ts';
import {
  hashSecret,
  passesSecretCheck,
  randomToken,
  secretCheckOf,
  secretsEqual,
  verifySecretHash,
} from './secret.ts';

/**
 * Makes sure there is an admin secret. With ADMIN_SECRET set that is it; otherwise the first start
 * generates one, stores its hash and check value, and returns the plain secret so main can print it once.
 */
export async function ensureAdminSecret(ctx: AppContext): Promise<{ generated: string | null }> {
  if (ctx.config.ADMIN_SECRET) return { generated: null };
  if (await findAdminCredentials(ctx.db)) return { generated: null };
  const secret = randomToken(24);
  const hash = await hashSecret(secret);
  const stored = await insertAdminSecretHash(ctx.db, hash, ctx.now(), secretCheckOf(secret, hash));
  return { generated: stored ? secret : null };
}

/** What checking a candidate found: `refused` when the scrypt queue would not check it (login-check-queue.ts). */
export type SecretVerdict = 'right' | 'wrong' | 'refused';

type StoredSecret = NonNullable<Awaited<ReturnType<typeof findAdminCredentials>>>;

/**
 * Checks candidates against the admin secret: ADMIN_SECRET in constant time; a generated secret
 * first against its check value (microseconds, turns away nearly every wrong guess), then, for what
 * passes, against its scrypt hash on this process's login check queue. A secret stored before check
 * values existed gets its own at its first right check.
 */
export class AdminSecretChecks {
  readonly queue: LoginCheckQueue;
  /** The stored secret once it has a check value: it never changes after (no login reads it again). */
  private stored: StoredSecret | undefined;

  constructor(private readonly ctx: AppContext) {
    this.queue = LoginCheckQueue.fromConfig(ctx.config);
  }

  /** Checks `candidate`; a scrypt check waits in `lane` and counts toward `client`'s share. */
  async check(candidate: string, client: string, lane: LoginLane): Promise<SecretVerdict> {
    const { config, db } = this.ctx;
    if (config.ADMIN_SECRET) return secretsEqual(candidate, config.ADMIN_SECRET) ? 'right' : 'wrong';
    const stored = this.stored ?? (await findAdminCredentials(db));
    if (!stored) return 'wrong';
    const { secretHash, secretCheck } = stored;
    if (secretCheck !== null) this.stored = stored;
    if (secretCheck !== null && !passesSecretCheck(candidate, secretHash, secretCheck)) return 'wrong';
    let right: boolean;
    try {
      right = await this.queue.run(client, lane, () => verifySecretHash(candidate, secretHash));
    } catch (error) {
      if (error instanceof LoginCheckRefused) return 'refused';
      throw error;
    }
    if (!right) return 'wrong';
    if (secretCheck === null) {
      const check = secretCheckOf(candidate, secretHash);
      if (check !== null) await setAdminSecretCheck(db, secretHash, check);
    }
    return 'right';
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The admin login's secret checks of this process, with their scrypt queue (admin-secret.ts). */
    adminSecret: AdminSecretChecks;
  }
}
