import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { PetDiscovery } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import {
  type DestinationRule,
  insertOutboxRows,
  listDestinationRules,
  type OutboxInsert,
} from './notifications.store.ts';

/** The bus channel on which an instance that changed a destination tells the others to reload. */
export const DESTINATIONS_CHANNEL = 'notification-destinations';

/**
 * How often every instance reloads the destinations anyway: a message the bus lost, or the
 * dispatcher turning one off (a 404), is caught up within this.
 */
const RELOAD_EVERY_MS = 30_000;

/**
 * A find's value tier: its order of magnitude per second (1M/s to under 10M/s: 6). After an outage a
 * lane posts the dearest tier first and, within a tier, the newest find first (fresher servers).
 */
export function valueTierOf(numericValue: number): number {
  return numericValue >= 1 ? Math.floor(Math.log10(numericValue)) : 0;
}

/** Whether `find` goes to `rule`'s destination: within its value range (inclusive), one of its pets. */
export function findMatches(rule: DestinationRule, find: PetDiscovery): boolean {
  if (find.numericValue < rule.minValue) return false;
  if (rule.maxValue !== null && find.numericValue > rule.maxValue) return false;
  return rule.petNames.size === 0 || rule.petNames.has(find.name.toLowerCase());
}

/**
 * Writes the outbox rows of finds, in the transaction that stores them (registered with the fleet's
 * discovery writer): one per enabled destination a find matches, due after the destination's delay.
 * The destinations are kept in memory, so the hot path reads nothing: reloaded when one changes here,
 * when another instance says one changed (the bus), and every RELOAD_EVERY_MS.
 */
export class NotificationOutbox {
  private rules: DestinationRule[] = [];
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Loads the destinations, joins the bus, and starts the periodic reload. */
  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe = this.ctx.bus.subscribe(DESTINATIONS_CHANNEL, () => void this.reloadQuietly());
    this.timer = setInterval(() => void this.reloadQuietly(), RELOAD_EVERY_MS).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  /** After a destination changed: reloaded here before the caller is answered, then on every instance. */
  async destinationsChanged(): Promise<void> {
    await this.reload();
    await this.ctx.bus.publish(DESTINATIONS_CHANNEL, { kind: 'changed' });
  }

  /** Reloads the destinations (one load at a time; the last one started wins). */
  reload(): Promise<void> {
    this.reloading = this.reloading
      .catch(() => {})
      .then(async () => {
        this.rules = await listDestinationRules(this.ctx.db);
      });
    return this.reloading;
  }

  private async reloadQuietly(): Promise<void> {
    try {
      await this.reload();
    } catch (err) {
      this.log.warn({ err }, 'could not reload notification destinations; the previous ones stay');
    }
  }

  /** The outbox rows for `finds`, by the destinations in memory. */
  rowsFor(finds: PetDiscovery[]): OutboxInsert[] {
    const rows: OutboxInsert[] = [];
    for (const find of finds) {
      for (const rule of this.rules) {
        if (!findMatches(rule, find)) continue;
        const foundAt = Date.parse(find.timestamp);
        rows.push({
          destination_id: rule.id,
          discovery_seq: find.seq,
          payload: JSON.stringify(find),
          value_tier: valueTierOf(find.numericValue),
          found_at: foundAt,
          due_at: foundAt + rule.delaySeconds * 1000,
        });
      }
    }
    return rows;
  }

  /**
   * The fleet's discovery companion: writes the finds' outbox rows in `trx`. Inside a savepoint, so
   * a row the database refuses (a destination deleted on another instance a moment ago) is left out
   * alone, logged, and never costs the finds their place in the database.
   */
  readonly writeWithDiscoveries = async (
    trx: Transaction<Database>,
    finds: PetDiscovery[],
  ): Promise<void> => {
    const rows = this.rowsFor(finds);
    if (rows.length === 0) return;
    const now = this.ctx.now();
    if (await this.insertInSavepoint(trx, rows, now)) return;
    // One at a time, so only the refused rows are left out.
    for (const row of rows) {
      if (!(await this.insertInSavepoint(trx, [row], now))) {
        this.log.error(
          { destinationId: row.destination_id, discoverySeq: row.discovery_seq },
          'a notification the database refused was left out (the find is kept)',
        );
      }
    }
  };

  private async insertInSavepoint(
    trx: Transaction<Database>,
    rows: OutboxInsert[],
    now: number,
  ): Promise<boolean> {
    await sql`savepoint notification_outbox`.execute(trx);
    try {
      await insertOutboxRows(trx, rows, now);
      await sql`release savepoint notification_outbox`.execute(trx);
      return true;
    } catch (error) {
      // The database away is the batch's problem: the writer keeps every row and tries again.
      if (isDatabaseUnavailable(error)) throw error;
      await sql`rollback to savepoint notification_outbox`.execute(trx);
      await sql`release savepoint notification_outbox`.execute(trx);
      return false;
    }
  }
}
