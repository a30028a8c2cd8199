import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { HealthReport } from '../../../../common/ai-health.ts';
import type { Db } from '../../../db/index.ts';
import { oneDecimal } from './rounding.ts';

/** A round trip slower than this is reported 'slow' (a local SQLite answers in well under 1 ms, a nearby PostgreSQL in a few). */
export const SLOW_DATABASE_MS = 200;
/** A database that has not answered in this long is reported 'disconnected', so a hung one cannot hang the report. */
export const DATABASE_PROBE_TIMEOUT_MS = 5000;

/**
 * The query the probe times. An object, not a bare function, so a test can wrap `ping` (with
 * `vi.spyOn`) to add a delay or make it throw, while the rest of the app keeps the real database.
 */
export const databasePing = {
  async ping(db: Db): Promise<void> {
    await sql`select 1`.execute(db);
  },
};

export type DatabaseHealth = HealthReport['databaseHealth'] & {
  /** Why it is disconnected, when it is. */
  error: string | null;
};

/** Times one round trip to the database (`responseTime` in ms, one decimal) and classifies it. */
export async function probeDatabase(db: Db): Promise<DatabaseHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${DATABASE_PROBE_TIMEOUT_MS / 1000} s`)),
      DATABASE_PROBE_TIMEOUT_MS,
    );
  });
  const elapsed = () => oneDecimal(performance.now() - started);
  try {
    await Promise.race([databasePing.ping(db), timeout]);
    const responseTime = elapsed();
    return {
      responseTime,
      connectionStatus: responseTime > SLOW_DATABASE_MS ? 'slow' : 'connected',
      error: null,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { responseTime: elapsed(), connectionStatus: 'disconnected', error: message };
  } finally {
    clearTimeout(timer);
  }
}
