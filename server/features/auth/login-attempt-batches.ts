import type { ReservedAttempt } from './login-attempts.store.ts';

/** Clients counted in one statement at most. */
export const MAX_CLIENTS_A_BATCH = 500;

type Reserve = (clients: readonly string[]) => Promise<Map<string, ReservedAttempt>>;

interface Waiter {
  resolve(attempt: ReservedAttempt | undefined): void;
  reject(error: unknown): void;
}

/**
 * Counts login attempts in batches: while one statement is out, the attempts that arrive wait and go
 * together in the next, a client at most once a statement (its second attempt goes in the one after).
 * A flood from 2,000 addresses then costs the database a handful of statements, not 2,000 queued in
 * front of the admin's own attempt (which waited past the pool's timeout and answered 503).
 */
export class LoginAttemptBatches {
  /** Client -> its attempts waiting, oldest first; a Map keeps the clients in order of arrival. */
  private readonly waiting = new Map<string, Waiter[]>();
  private flushing = false;

  constructor(private readonly reserve: Reserve) {}

  /** Counts an attempt for `client`: its count in the window, or undefined when refused. */
  count(client: string): Promise<ReservedAttempt | undefined> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(client);
      if (queue) queue.push({ resolve, reject });
      else this.waiting.set(client, [{ resolve, reject }]);
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.waiting.size > 0) {
        const batch = this.takeBatch();
        try {
          const counted = await this.reserve(batch.map(([client]) => client));
          for (const [client, waiter] of batch) waiter.resolve(counted.get(client));
        } catch (error) {
          for (const [, waiter] of batch) waiter.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private takeBatch(): Array<[string, Waiter]> {
    const batch: Array<[string, Waiter]> = [];
    for (const [client, queue] of this.waiting) {
      if (batch.length >= MAX_CLIENTS_A_BATCH) break;
      const waiter = queue.shift();
      if (waiter) batch.push([client, waiter]);
      if (queue.length === 0) this.waiting.delete(client);
    }
    return batch;
  }
}
