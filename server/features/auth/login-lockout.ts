import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS } from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { LoginAttemptBatches } from './login-attempt-batches.ts';
import { type ReservedAttempt, releaseLoginAttempt, reserveLoginAttempts } from './login-attempts.store.ts';

/** Locked-out clients remembered at most; past it the expired, then the oldest, are forgotten. */
const MAX_REMEMBERED = 100_000;

/**
 * The failed-login lockout: LOGIN_FAILURE_LIMIT attempts per client (IPv4 address or IPv6 /64) in a
 * window of LOGIN_FAILURE_WINDOW_MS that begins with its first counted attempt. The count lives in the
 * database (one atomic statement an attempt, so every instance counts together); this process also
 * remembers the clients it saw fail their last allowed attempt, until their window ends, and refuses
 * them without asking the database: a locked-out flood then costs no database work, so the admin's
 * sign-in does not queue behind it. The attempts of a flood that is not locked out yet are counted in
 * batches (login-attempt-batches.ts).
 */
export class LoginLockout {
  /** Client -> when its window ends. */
  private readonly lockedUntil = new Map<string, number>();

  private readonly batches: LoginAttemptBatches;

  constructor(private readonly ctx: AppContext) {
    this.batches = new LoginAttemptBatches((clients) =>
      reserveLoginAttempts(ctx.db, clients, ctx.now(), LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS),
    );
  }

  /** Counts an attempt for `client`, or returns undefined when it is locked out. */
  async reserve(client: string, now: number): Promise<ReservedAttempt | undefined> {
    const until = this.lockedUntil.get(client);
    if (until !== undefined) {
      if (now < until) return undefined;
      this.lockedUntil.delete(client);
    }
    return this.batches.count(client);
  }

  /** The attempt was a failure: once it is the last one allowed, the client is locked out for the window. */
  failed(client: string, attempt: ReservedAttempt): void {
    if (attempt.attempts < LOGIN_FAILURE_LIMIT) return;
    if (this.lockedUntil.size >= MAX_REMEMBERED) this.forget(this.ctx.now());
    this.lockedUntil.set(client, attempt.windowStartedAt + LOGIN_FAILURE_WINDOW_MS);
  }

  /** Gives back an attempt that was not a failure (the right secret, or the server's own error). */
  release(db: Db, client: string, attempt: ReservedAttempt): Promise<void> {
    return releaseLoginAttempt(db, client, attempt);
  }

  private forget(now: number): void {
    for (const [client, until] of this.lockedUntil) if (until <= now) this.lockedUntil.delete(client);
    const excess = this.lockedUntil.size - MAX_REMEMBERED + 1;
    let dropped = 0;
    for (const client of this.lockedUntil.keys()) {
      if (dropped++ >= excess) break;
      this.lockedUntil.delete(client);
    }
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The failed-login lockout (login-lockout.ts). */
    loginLockout: LoginLockout;
  }
}
