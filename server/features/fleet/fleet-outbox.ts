import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerHopEvent } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import { type BusFleetMessage, FLEET_CHANNEL, type HopCount, hopCountOf } from './fleet-bus.ts';
import type { FleetState } from './fleet-state.ts';

/**
 * How often an instance tells the others what its bots did. A bot reports two statuses and a hop
 * per hop: sent one by one, the other instances would parse and apply three messages per hop of
 * every bot; coalesced, each gets one message per instance per tick holding each changed bot once.
 */
export const CHANGES_EVERY_MS = 100;

/**
 * The changes this instance made to the fleet (its bots' messages), gathered and sent to the other
 * instances as one `changes` message per CHANGES_EVERY_MS: each changed bot's latest record and the
 * hops counted per minute, bot, reason and outcome.
 */
export class FleetOutbox {
  /** This instance on the bus: its own `changes` and hops come back to it and are skipped. */
  readonly instance = randomUUID();
  private readonly changed = new Set<string>();
  /** Bots whose latest change was made here: sent again whole after a Redis outage. */
  private readonly own = new Set<string>();
  /** Bots this instance has sent: a new one goes at once, so no instance hears of its hops first. */
  private readonly announced = new Set<string>();
  private readonly hops = new Map<string, HopCount>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly state: FleetState,
  ) {}

  scannerChanged(ghostId: string): void {
    this.changed.add(ghostId);
    this.own.add(ghostId);
    if (this.announced.has(ghostId)) this.schedule();
    else {
      this.announced.add(ghostId);
      // Published before anything after it (one Redis connection keeps the order).
      void this.send().catch((err: unknown) => this.log.warn({ err }, 'could not send fleet changes'));
    }
  }

  hopCounted(hop: ServerHopEvent): void {
    const count = hopCountOf(hop);
    const key = `${count.minute}\u0000${count.botId}\u0000${count.reason}\u0000${count.success}`;
    const known = this.hops.get(key);
    if (known) {
      known.hops++;
      known.latencySum += count.latencySum;
    } else this.hops.set(key, count);
    // The hop moved its bot's last activity (and current server).
    this.scannerChanged(hop.botId);
  }

  /** A bot removed (here or elsewhere): nothing more of it is sent. */
  forget(ghostId: string): void {
    this.changed.delete(ghostId);
    this.own.delete(ghostId);
    this.announced.delete(ghostId);
  }

  /** Redis was away: what was sent meanwhile may be lost, so every bot of this instance goes again. */
  resend(): void {
    for (const ghostId of this.own) this.changed.add(ghostId);
    this.schedule();
  }

  /** Sends what is gathered now (at shutdown, so the others have this instance's last word). */
  async send(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.changed.size === 0 && this.hops.size === 0) return;
    const scanners = [];
    for (const ghostId of this.changed) {
      const scanner = this.state.scanners.get(ghostId);
      if (scanner) scanners.push(scanner);
    }
    const message: BusFleetMessage = {
      kind: 'changes',
      from: this.instance,
      scanners,
      hops: [...this.hops.values()],
      head: this.state.head,
    };
    this.changed.clear();
    this.hops.clear();
    await this.ctx.bus.publish(FLEET_CHANNEL, message);
  }

  close(): Promise<void> {
    return this.send().catch((err: unknown) =>
      this.log.warn({ err }, 'could not send the last fleet changes'),
    );
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.send().catch((err: unknown) => this.log.warn({ err }, 'could not send fleet changes'));
    }, CHANGES_EVERY_MS).unref();
  }
}
