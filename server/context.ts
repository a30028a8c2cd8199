import type { Config } from './config.ts';
import type { Db, DialectName } from './db/index.ts';
import type { Bus } from './realtime/bus.ts';
import type { Publisher } from './realtime/publisher.ts';
import type { Transport } from './realtime/transport.ts';
import type { Turns } from './turns.ts';

/** What main (or a test) builds before the app: configuration, database, bus and clock. */
export interface AppBase {
  config: Config;
  db: Db;
  dialect: DialectName;
  bus: Bus;
  /** Epoch milliseconds; tests pass a fake clock. */
  now: () => number;
}

/**
 * Every feature's long-lived service, built once by buildApp (app.ts) from the features' entries
 * (`services` in server/feature.ts) before any feature registers.
 * The one way to reach them: nothing is kept in a WeakMap keyed by the context or decorated on `app`.
 * A feature adds its own entry where it defines the service (`declare module '…/context.ts'`), so
 * this file imports no feature and the arrows point one way: features → context.
 */
export interface AppServices {
  /** The realtime transport, which features register their socket protocols with (server/realtime). */
  transport: Transport;
  /** Sends frames to sockets of every instance (server/realtime/publisher.ts). */
  publisher: Publisher;
  /** The configuration screen's progress announcements, one at a time. */
  configurationProgress: Turns;
  /** Analysis runs, one at a time (the sweep and Generate Report may ask at once). */
  analysisRuns: Turns;
}

/** What every feature gets: the base plus the services. */
export interface AppContext extends AppBase {
  services: AppServices;
}

export interface FeatureOptions {
  ctx: AppContext;
}
