import type { Config } from './config.ts';
import type { Db, DialectName } from './db/index.ts';
import type { Bus } from './realtime/bus.ts';

/** What every feature needs, built once by main (or a test) and handed to buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  bus: Bus;
  /** Epoch milliseconds; tests pass a fake clock. */
  now: () => number;
}

export interface FeatureOptions {
  ctx: AppContext;
}
