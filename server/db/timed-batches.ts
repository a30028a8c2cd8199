import { setImmediate } from 'node:timers/promises';

/*
 * Long deletes (retention sweeps) in batches sized by time, not by a fixed row count: a row costs 3 to
 * 70 µs to delete depending on the machine, its load, the table's indexes and what is cached (measured
 * with `npm run bench:week` on two cores shared with other work: a fixed 5,000 hops took up to 85 ms).
 */

/**
 * What one batch should take. On SQLite (better-sqlite3 is synchronous) a statement holds the event
 * loop from start to end, and no sweep may hold it 100 ms; on PostgreSQL a short batch holds its row
 * locks briefly.
 */
export const BATCH_TARGET_MS = 10;
const FIRST_ROWS = 250;
const MIN_ROWS = 50;
const MAX_ROWS = 2000;

/**
 * The next batch's size: this one's scaled by how far it was from the target, down to a quarter but
 * up by half at most (on a busy machine the same batch takes 2 or 40 ms: growing slowly keeps a lucky
 * quick one from doubling into a slow one).
 */
export function nextBatchRows(rows: number, tookMs: number): number {
  const factor = Math.min(1.5, Math.max(0.25, BATCH_TARGET_MS / Math.max(tookMs, 0.1)));
  return Math.min(MAX_ROWS, Math.max(MIN_ROWS, Math.round(rows * factor)));
}

/**
 * Calls `deleteBatch(rows)` until it deletes fewer rows than asked or `stopped()` turns true, each
 * batch sized by how long the previous one took, with a turn of the event loop between (timers and
 * requests go first). Returns the rows deleted.
 */
export async function deleteInTimedBatches(
  deleteBatch: (rows: number) => Promise<number>,
  stopped: () => boolean,
  clock: () => number = () => performance.now(),
): Promise<number> {
  let deleted = 0;
  let rows = FIRST_ROWS;
  for (;;) {
    const started = clock();
    const batch = await deleteBatch(rows);
    deleted += batch;
    if (batch < rows || stopped()) return deleted;
    rows = nextBatchRows(rows, clock() - started);
    await setImmediate();
  }
}
