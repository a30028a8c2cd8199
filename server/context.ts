import type { Config } from './config.ts';
import type { Db, DialectName } from './db/index.ts';
import type { BotEventBudget } from './features/fleet/bot-event-budget.ts';
import type { Fleet } from './features/fleet/fleet.service.ts';
import type { BotRemovalSteps } from './features/fleet/fleet-removal.service.ts';
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
 * Every feature's long-lived service, built once by buildApp (app.ts) before any feature registers.
 * The one way to reach them: nothing is kept in a WeakMap keyed by the context or decorated on `app`.
 */
export interface AppServices {
  /** The realtime transport, which features register their socket protocols with (server/realtime). */
  transport: Transport;
  /** Sends frames to sockets of every instance (server/realtime/publisher.ts). */
  publisher: Publisher;
  /** The fleet core: live state, the event stream (`fleet.discoveries` for the feed), bot messages. */
  fleet: Fleet;
  /** Events per second per bot, shared by POST /api/bot/events and the bot socket. */
  botEventBudget: BotEventBudget;
  /** What the features above the fleet delete with a removed bot (handed over by app.ts). */
  botRemovalSteps: BotRemovalSteps;
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
