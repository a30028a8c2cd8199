import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { FLEET_HOPS_CHANNEL } from './fleet-bus.ts';
import type { FleetLive } from './fleet-live.ts';
import { loadRecentEvents } from './fleet-load.store.ts';
import type { FleetPersistence } from './fleet-persistence.ts';
import type { FleetEventWithSeq } from './fleet-records.ts';
import { EVENT_RING_SIZE, type FleetState } from './fleet-state.ts';

/** After its last dashboard leaves, an instance hears every hop this long still: a reload comes back. */
export const UNWATCH_AFTER_MS = 60_000;
/**
 * How long another instance may hold a hop before its row is in the database: an instance that starts
 * hearing every hop waits this long before reading the recent ones, so none falls between the two.
 */
const WRITE_LAG_MS = 1100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether this instance hears the other instances' hops one by one: only while it has dashboards
 * (admin sockets) to show them to. The first one to come subscribes and reads the recent events
 * from the database into the stream, so its backfill and a `?since=` resume hold every instance's
 * events; UNWATCH_AFTER_MS after the last one leaves, the instance stops listening. An instance
 * without Redis is alone: it hears everything always.
 */
export class FleetWatch {
  private watchers = 0;
  private unsubscribe: (() => void) | undefined;
  private warming: Promise<void> | undefined;
  private linger: NodeJS.Timeout | undefined;
  private readonly alone: boolean;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly state: FleetState,
    private readonly live: FleetLive,
    private readonly persistence: FleetPersistence,
  ) {
    this.alone = ctx.bus.commands === undefined;
  }

  /** Alone, it listens from the start (a test may still publish another instance's hops). */
  start(): void {
    if (this.alone) this.listen();
  }

  /**
   * A dashboard that needs every event: `ready` is null when the stream already holds them, else
   * resolves once it does. Call `release` when it leaves.
   */
  watch(): { ready: Promise<void> | null; release: () => void } {
    this.watchers++;
    clearTimeout(this.linger);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.watchers--;
      if (this.watchers > 0 || this.alone) return;
      this.linger = setTimeout(() => this.stop(), UNWATCH_AFTER_MS).unref();
    };
    if (this.alone || (this.unsubscribe && !this.warming)) return { ready: null, release };
    this.warming ??= this.warm().finally(() => {
      this.warming = undefined;
    });
    return { ready: this.warming, release };
  }

  close(): void {
    clearTimeout(this.linger);
    this.stop();
  }

  private listen(): void {
    this.unsubscribe ??= this.ctx.bus.subscribe(FLEET_HOPS_CHANNEL, (message) => this.live.applyHop(message));
    this.live.hearsEveryHop = true;
  }

  private stop(): void {
    if (this.alone) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.live.hearsEveryHop = false;
  }

  /** Hops from now on come one by one; those before are read from the database once written. */
  private async warm(): Promise<void> {
    this.listen();
    try {
      await sleep(WRITE_LAG_MS);
      await this.persistence.flush();
      const recent = await loadRecentEvents(this.ctx.db, EVENT_RING_SIZE);
      const events: FleetEventWithSeq[] = [
        ...recent.hops.map((hop) => ({ kind: 'hop' as const, hop, seq: hop.seq })),
        ...recent.discoveries.map((discovery) => ({
          kind: 'discovery' as const,
          discovery,
          seq: discovery.seq,
        })),
      ].sort((a, b) => a.seq - b.seq);
      this.state.events.merge(events);
      // A list that came back full may have older rows: a resume from before them gets a backfill.
      const floorOf = (list: Array<{ seq: number }>) =>
        list.length >= EVENT_RING_SIZE ? (list[0]?.seq ?? 1) - 1 : 0;
      const floor = Math.max(floorOf(recent.hops), floorOf(recent.discoveries));
      this.state.events.floor = Math.max(this.state.events.floor, floor);
      this.state.hops.merge(recent.hops);
      this.state.head = Math.max(this.state.head, events.at(-1)?.seq ?? 0);
    } catch (err) {
      this.log.warn(
        { err },
        'could not read the recent fleet events: dashboards here miss some of the others',
      );
    }
  }
}
