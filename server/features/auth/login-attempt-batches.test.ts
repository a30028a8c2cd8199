import { describe, expect, it } from 'vitest';
import { LoginAttemptBatches, MAX_CLIENTS_A_BATCH } from './login-attempt-batches.ts';
import type { ReservedAttempt } from './login-attempts.store.ts';

/** A database stand-in whose statements finish when the test says, counting per client. */
function fakeReserve(limit = 5) {
  const statements: string[][] = [];
  const pending: Array<() => void> = [];
  const counts = new Map<string, number>();
  const reserve = (clients: readonly string[]) => {
    statements.push([...clients]);
    return new Promise<Map<string, ReservedAttempt>>((resolve) => {
      pending.push(() => {
        const counted = new Map<string, ReservedAttempt>();
        for (const client of clients) {
          const attempts = (counts.get(client) ?? 0) + 1;
          if (attempts > limit) continue;
          counts.set(client, attempts);
          counted.set(client, { attempts, windowStartedAt: 0 });
        }
        resolve(counted);
      });
    });
  };
  const finishOne = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { reserve, statements, finishOne };
}

describe('login attempt batches', () => {
  it('counts the attempts that arrive while a statement is out together in the next one', async () => {
    const db = fakeReserve();
    const batches = new LoginAttemptBatches(db.reserve);
    const first = batches.count('10.0.0.1');
    const flood = Array.from({ length: 1200 }, (_, i) => batches.count(`10.1.${i >> 8}.${i & 255}`));
    expect(db.statements).toHaveLength(1);
    await db.finishOne();
    expect(await first).toEqual({ attempts: 1, windowStartedAt: 0 });
    // 1,200 waiting clients: three statements of at most MAX_CLIENTS_A_BATCH.
    for (let i = 0; i < 3; i++) await db.finishOne();
    expect(db.statements.map((clients) => clients.length)).toEqual([1, MAX_CLIENTS_A_BATCH, 500, 200]);
    expect((await Promise.all(flood)).every((attempt) => attempt?.attempts === 1)).toBe(true);
  });

  it("puts a client's second attempt in the next statement, and answers a refused one with undefined", async () => {
    const db = fakeReserve(1);
    const batches = new LoginAttemptBatches(db.reserve);
    const blocker = batches.count('10.0.0.9');
    const twice = [batches.count('10.0.0.1'), batches.count('10.0.0.1'), batches.count('10.0.0.2')];
    await db.finishOne();
    await blocker;
    expect(db.statements[1]).toEqual(['10.0.0.1', '10.0.0.2']);
    await db.finishOne();
    expect(db.statements[2]).toEqual(['10.0.0.1']);
    await db.finishOne();
    expect(await Promise.all(twice)).toEqual([
      { attempts: 1, windowStartedAt: 0 },
      undefined,
      { attempts: 1, windowStartedAt: 0 },
    ]);
  });

  it('fails the attempts of a statement that fails, and goes on with the next', async () => {
    let calls = 0;
    const batches = new LoginAttemptBatches(async (clients) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return new Map(clients.map((client) => [client, { attempts: 1, windowStartedAt: 0 }]));
    });
    await expect(batches.count('10.0.0.1')).rejects.toThrow('connection lost');
    expect(await batches.count('10.0.0.1')).toEqual({ attempts: 1, windowStartedAt: 0 });
  });
});
