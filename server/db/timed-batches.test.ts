import { describe, expect, it } from 'vitest';
import { BATCH_TARGET_MS, deleteInTimedBatches, nextBatchRows } from './timed-batches.ts';

describe('deletes in batches sized by time', () => {
  it('shrinks batches that take too long and grows quick ones, within bounds', () => {
    expect(nextBatchRows(1000, BATCH_TARGET_MS)).toBe(1000);
    expect(nextBatchRows(1000, 2 * BATCH_TARGET_MS)).toBe(500);
    expect(nextBatchRows(1000, 40 * BATCH_TARGET_MS)).toBe(250);
    expect(nextBatchRows(1000, BATCH_TARGET_MS / 10)).toBe(1500);
    expect(nextBatchRows(60, 10 * BATCH_TARGET_MS)).toBe(50);
    expect(nextBatchRows(1800, 0)).toBe(2000);
  });

  it('asks for fewer rows after a slow batch, and stops at the first short one', async () => {
    let now = 0;
    const asked: number[] = [];
    const got: number[] = [];
    let left = 2000;
    // Each row costs 0.1 ms: 100 rows make the target.
    const deleted = await deleteInTimedBatches(
      async (rows) => {
        asked.push(rows);
        const n = Math.min(rows, left);
        left -= n;
        now += n * 0.1;
        got.push(n);
        return n;
      },
      () => false,
      () => now,
    );
    expect(deleted).toBe(2000);
    expect(asked.slice(0, 3)).toEqual([250, 100, 100]);
    // The last batch found fewer rows than it asked for: nothing more to delete.
    expect(got.at(-1)).toBeLessThan(asked.at(-1)!);
    expect(got.slice(0, -1)).toEqual(asked.slice(0, -1));
  });

  it('stops when told to, between batches', async () => {
    let calls = 0;
    const deleted = await deleteInTimedBatches(
      async (rows) => {
        calls++;
        return rows;
      },
      () => calls === 2,
    );
    expect(calls).toBe(2);
    expect(deleted).toBeGreaterThan(0);
  });
});
