import type { FastifyBaseLogger } from 'fastify';
import type { ServerHopEvent } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { BusFleetMessage, BusHopMessage } from './fleet-bus.ts';
import type { FleetOutbox } from './fleet-outbox.ts';
import type { FleetPersistence } from './fleet-persistence.ts';
import type { FleetEventWithSeq } from './fleet-records.ts';
import { SeqReorder } from './fleet-reorder.ts';
import type { FleetState } from './fleet-state.ts';

/** Dashboards get state updates (scanners, stats) at most this often. */
const STATE_EVERY_MS = 250;
/** How often silence is checked, so a bot turning inactive reaches dashboards without any event. */
const INACTIVE_CHECK_EVERY_MS = 1000;

/**
 * The live fleet on this instance: applies its own bots' changes and what the other instances send
 * (fleet-bus.ts) to the state, hands hops and discoveries to listeners in seq order, and tells
 * dashboards of changes.
 */
export class FleetLive {
  private readonly eventListeners = new Set<(event: FleetEventWithSeq) => void>();
  private readonly stateListeners = new Set<() => void>();
  /** Per bot: what runs on this instance when it is removed (its socket here is closed). */
  private readonly removalListeners = new Map<string, Set<() => void>>();
  private readonly reorder = new SeqReorder<FleetEventWithSeq>(
    (event) => this.release(event),
    () => this.stateChanged(),
    () => this.hearsEveryHop,
  );
  /** Whether the other instances' hops come here one by one (while it has dashboards: fleet-watch.ts). */
  hearsEveryHop = false;
  /** The highest stream position the other instances said they handed out. */
  othersHead = 0;
  private stateTimer: NodeJS.Timeout | undefined;
  private inactiveTimer: NodeJS.Timeout | undefined;
  private statusSignature = '';
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly state: FleetState,
    private readonly persistence: FleetPersistence,
    private readonly outbox: FleetOutbox,
  ) {}

  /** Starts after the state is seeded: `released` is the last seq handed out before. */
  start(released: number): void {
    this.reorder.released = released;
    this.statusSignature = this.statusesNow();
    this.inactiveTimer = setInterval(() => this.checkSilence(), INACTIVE_CHECK_EVERY_MS).unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.inactiveTimer);
    clearTimeout(this.stateTimer);
    this.reorder.close();
  }

  /**
   * Every discovery (from any instance) and hop as this instance applies it, after the state has it:
   * its own hops, and the others' while it has dashboards (fleet-watch.ts).
   */
  onEvent(listener: (event: FleetEventWithSeq) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Called at most every STATE_EVERY_MS after scanners or statistics changed. */
  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Runs `listener` on this instance when `ghostId` is removed (on any instance). Returns unsubscribe. */
  onRemoved(ghostId: string, listener: () => void): () => void {
    const listeners = this.removalListeners.get(ghostId) ?? new Set();
    this.removalListeners.set(ghostId, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.removalListeners.get(ghostId) === listeners)
        this.removalListeners.delete(ghostId);
    };
  }

  /** Removes a bot from this instance's state and runs its removal listeners; returns whether it was here. */
  forgetHere(ghostId: string, at: number): boolean {
    const held = this.state.forget(ghostId, at);
    this.outbox.forget(ghostId);
    // Once: the bot's sockets here close, and a socket of it that joins again subscribes anew.
    const listeners = this.removalListeners.get(ghostId) ?? new Set<() => void>();
    this.removalListeners.delete(ghostId);
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error({ err, ghostId }, 'a fleet removal listener failed');
      }
    }
    if (held) this.stateChanged();
    return held;
  }

  /** A hop of this instance's bot: counted, sent to the others counted, and in the stream. */
  ownHop(hop: ServerHopEvent): void {
    this.state.countHop(hop);
    this.outbox.hopCounted(hop);
    this.reorder.arrive({ kind: 'hop', hop, seq: hop.seq });
    this.stateChanged();
  }

  /** Another instance's hop (FLEET_HOPS_CHANNEL): in the stream only, as it was counted with its `changes`. */
  applyHop(message: unknown): void {
    const m = message as BusHopMessage;
    if (m?.kind !== 'hop' || m.from === this.outbox.instance) return;
    this.reorder.arrive({ kind: 'hop', hop: m.hop, seq: m.hop.seq });
    this.stateChanged();
  }

  /** A fleet message from FLEET_CHANNEL (this instance's own ones too). */
  apply(message: unknown): void {
    const m = message as BusFleetMessage;
    switch (m?.kind) {
      case 'discovery':
        this.reorder.arrive({ kind: 'discovery', discovery: m.discovery, seq: m.discovery.seq });
        break;
      case 'changes':
        if (m.from === this.outbox.instance) return;
        for (const scanner of m.scanners) this.state.applyScanner(scanner);
        for (const count of m.hops) this.state.countHops(count);
        this.othersHead = Math.max(this.othersHead, m.head);
        break;
      case 'removed':
        if (this.forgetHere(m.ghostId, m.at) && !this.closed)
          this.persistence.deleteRemovedScanner(m.ghostId);
        break;
      case 'pruned':
        this.state.dropBefore(m.before);
        // Every instance, the pruning one too, counts its totals again from what is left.
        if (!this.closed) this.persistence.recountTotals();
        break;
      default:
        this.log.warn('ignoring a fleet bus message of an unknown kind');
        return;
    }
    this.stateChanged();
  }

  /** Tells state listeners, at most every STATE_EVERY_MS. */
  stateChanged(): void {
    if (this.stateTimer || this.closed) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      this.statusSignature = this.statusesNow();
      for (const listener of this.stateListeners) {
        try {
          listener();
        } catch (err) {
          this.log.error({ err }, 'a fleet state listener failed');
        }
      }
    }, STATE_EVERY_MS).unref();
  }

  private release(event: FleetEventWithSeq): void {
    if (event.kind === 'hop') this.state.addHop(event.hop);
    else this.state.applyDiscovery(event.discovery);
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch (err) {
        this.log.error({ err }, 'a fleet event listener failed');
      }
    }
  }

  /**
   * Each bot's status and whether it is heard from: a bot whose last word was 'inactive' (stopped, or
   * shut down) falls silent without its status changing, yet the fleet's state counts it
   * (common/fleet-condition.ts), so dashboards are told then too.
   */
  private statusesNow(): string {
    const now = this.ctx.now();
    return [...this.state.scanners.values()]
      .map((s) => `${this.state.effectiveStatus(s, now)}${this.state.isHeard(s, now) ? '' : '?'}`)
      .join(',');
  }

  /** A bot that fell silent changes no data: this notices it turning inactive (or no longer heard). */
  private checkSilence(): void {
    if (this.statusesNow() !== this.statusSignature) this.stateChanged();
  }
}
