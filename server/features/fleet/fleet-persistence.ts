import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { PetDiscovery, ServerHopEvent } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { BatchWriter, RowKind } from '../../db/batch-writer.ts';
import type { Database } from '../../db/database.ts';
import { deleteInTimedBatches } from '../../db/timed-batches.ts';
import { deleteScanner, insertDiscoveries, insertHops, upsertScanners } from './fleet.store.ts';
import { type BusFleetMessage, FLEET_CHANNEL } from './fleet-bus.ts';
import { addToHopRollups, countedHop, loadHopTotals } from './fleet-hop-rollups.store.ts';
import { deleteDiscoveriesBefore, deleteHopsBefore } from './fleet-retention.store.ts';
import type { FleetState } from './fleet-state.ts';

const DAY_MS = 24 * 60 * 60_000;

/** Hops, as the batched writer writes them (a kind of its rows), added to their rollups in the same transaction. */
export const hopRows: RowKind<ServerHopEvent> = {
  table: 'fleet_hops',
  write: async (trx, hops) => {
    const inserted = await insertHops(trx, hops);
    await addToHopRollups(trx, inserted.map(countedHop));
  },
};

/**
 * Rows a feature above the fleet writes with a batch of discoveries, in the transaction that stores
 * them (notifications' outbox): a crash keeps both or neither. It must not throw for a row it can
 * do without, or the finds of the batch would be set aside with it.
 */
export type DiscoveryCompanion = (trx: Transaction<Database>, discoveries: PetDiscovery[]) => Promise<void>;

/** The promise itself, marked as handled now: it is awaited later, after other messages were applied. */
function watched(written: Promise<void>): Promise<void> {
  written.catch(() => {});
  return written;
}

/**
 * The fleet's rows in the database: hops, discoveries and scanners handed to the shared batched
 * writer, the retention sweep, and the clean-up other instances' removals and sweeps call for.
 */
export class FleetPersistence {
  /**
   * Scanner rows by ghost id: one per bot while queued, written as the bot stands when the batch is
   * written (a bot removed meanwhile is not written back).
   */
  readonly scannerRows: RowKind<string> = {
    table: 'fleet_scanners',
    keyOf: (ghostId) => ghostId,
    write: (trx, ghostIds) =>
      upsertScanners(
        trx,
        ghostIds.flatMap((id) => {
          const scanner = this.state.scanners.get(id);
          return scanner ? [scanner] : [];
        }),
      ),
  };

  private readonly discoveryCompanions: DiscoveryCompanion[] = [];

  /** Discoveries, as the batched writer writes them, with what features registered to go along. */
  readonly discoveryRows: RowKind<PetDiscovery> = {
    table: 'fleet_discoveries',
    write: async (trx, discoveries) => {
      await insertDiscoveries(trx, discoveries);
      for (const companion of this.discoveryCompanions) await companion(trx, discoveries);
    },
  };

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly writer: BatchWriter,
    private readonly state: FleetState,
  ) {}

  /** Whether `events` more bot events fit in the writer now (it is bounded while the database is behind or away). */
  hasRoomFor(events: number): boolean {
    return this.writer.hasRoomFor(events);
  }

  /**
   * Hands a row to the writer: one that is acknowledged is written within milliseconds and its
   * commit awaited; one nobody is told about goes with the next batch (within a second).
   */
  persist<R>(kind: RowKind<R>, row: R, acknowledged: boolean): Promise<void> | undefined {
    if (acknowledged) return watched(this.writer.write(kind, row));
    this.writer.add(kind, row);
    return undefined;
  }

  /** Writes `companion`'s rows with every batch of discoveries, in the same transaction. */
  alsoWriteWithDiscoveries(companion: DiscoveryCompanion): void {
    this.discoveryCompanions.push(companion);
  }

  /** A sign of life of `ghostId`: its row goes with the next batch, nobody waits for it. */
  touch(ghostId: string): void {
    this.writer.add(this.scannerRows, ghostId);
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Removed on another instance: a batch this one was committing may have written the row back. */
  deleteRemovedScanner(ghostId: string): void {
    void this.flush()
      .then(() => (this.state.scanners.has(ghostId) ? undefined : deleteScanner(this.ctx.db, ghostId)))
      .catch((err: unknown) => this.log.warn({ err }, 'could not delete a removed scanner row'));
  }

  /** Totals cover what is kept: read again from the rollups after another instance's sweep. */
  recountTotals(): void {
    // (Own queued hops written first, so the rollups include them.)
    void this.flush()
      .then(() => loadHopTotals(this.ctx.db))
      .then(
        (totals) => {
          this.state.totals = totals;
        },
        (err: unknown) => this.log.warn({ err }, 'could not recount fleet hop totals'),
      );
  }

  /**
   * Deletes hops (with their rollups) and discoveries older than FLEET_RETENTION_DAYS, in batches of
   * about 10 ms with a turn of the event loop between (on SQLite a statement holds the loop: no sweep
   * may hold it 100 ms), and tells every instance to forget them too; returns how many rows went.
   */
  async prune(stopped: () => boolean): Promise<number> {
    await this.flush();
    const before = this.ctx.now() - this.ctx.config.FLEET_RETENTION_DAYS * DAY_MS;
    let deleted = 0;
    for (const deleteBefore of [deleteHopsBefore, deleteDiscoveriesBefore]) {
      if (stopped()) break;
      deleted += await deleteInTimedBatches((rows) => deleteBefore(this.ctx.db, before, rows), stopped);
    }
    if (deleted > 0) {
      await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'pruned', before } satisfies BusFleetMessage);
      // Every instance reads its totals again on that message (a few thousand rollup rows at most);
      // this one is done before the sweep says it is.
      this.state.totals = await loadHopTotals(this.ctx.db);
    }
    return deleted;
  }
}
