import type { Config } from '../../config.ts';

/**
 * Which waiting line a check joins: `priority` for a client with no other attempt counted in its window
 * (how the admin signs in), `normal` for one that has failed or is being checked already.
 */
export type LoginLane = 'priority' | 'normal';

/** Why a check was not run: the client already holds its share, or the lines are full. */
export class LoginCheckRefused extends Error {
  constructor(readonly reason: 'share' | 'full') {
    super(
      reason === 'share'
        ? "the address's share of the login checks is in use"
        : 'the login check queue is full',
    );
  }
}

interface Waiter {
  start(): void;
  refuse(error: LoginCheckRefused): void;
}

/**
 * The scrypt checks of one process: at most `concurrency` run at once (the thread pool has 4 threads
 * and may share 2 cores with everything else), at most `size` wait, and one client (IPv4 address or
 * IPv6 /64) holds at most `perClient` of them, running or waiting. Waiting checks run in two lines,
 * every `priority` one before any `normal` one; when the lines are full a `priority` check takes the place
 * of the latest `normal` one, which is refused. A refused check is counted against its client as a
 * failed login by the caller, so being refused never frees an attacker's address.
 */
export class LoginCheckQueue {
  private running = 0;
  private readonly lines: Record<LoginLane, Waiter[]> = { priority: [], normal: [] };
  private readonly perClientInUse = new Map<string, number>();

  constructor(readonly limits: { concurrency: number; size: number; perClient: number }) {}

  static fromConfig(config: Config): LoginCheckQueue {
    return new LoginCheckQueue({
      concurrency: config.LOGIN_HASH_CONCURRENCY,
      size: config.LOGIN_QUEUE_SIZE,
      perClient: config.LOGIN_QUEUE_PER_ADDRESS,
    });
  }

  /** Runs `check` in its turn; throws LoginCheckRefused at once, or when a `priority` check takes its place. */
  async run<T>(client: string, lane: LoginLane, check: () => Promise<T>): Promise<T> {
    const inUse = this.perClientInUse.get(client) ?? 0;
    if (inUse >= this.limits.perClient) throw new LoginCheckRefused('share');
    this.perClientInUse.set(client, inUse + 1);
    try {
      await this.turn(lane);
      try {
        return await check();
      } finally {
        this.handOn();
      }
    } finally {
      const left = (this.perClientInUse.get(client) ?? 1) - 1;
      if (left > 0) this.perClientInUse.set(client, left);
      else this.perClientInUse.delete(client);
    }
  }

  /** Checks running and waiting now (for tests and the report). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.lines.priority.length + this.lines.normal.length };
  }

  private turn(lane: LoginLane): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.load.waiting >= this.limits.size) {
      const displaced = lane === 'priority' ? this.lines.normal.pop() : undefined;
      if (!displaced) return Promise.reject(new LoginCheckRefused('full'));
      displaced.refuse(new LoginCheckRefused('full'));
    }
    return new Promise((start, refuse) => this.lines[lane].push({ start, refuse }));
  }

  /** A finished check hands its slot to the next waiter, `priority` line before `normal`. */
  private handOn(): void {
    const next = this.lines.priority.shift() ?? this.lines.normal.shift();
    if (next) next.start();
    else this.running -= 1;
  }
}
