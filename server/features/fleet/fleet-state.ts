import {
  type HopStats,
  INITIAL_NETWORK_HEALTH,
  type NetworkStats,
  type PetDiscovery,
  type Scanner,
  type ScannerStatus,
  type ServerHopEvent,
  successTrend,
} from '../../../common/fleet.ts';
import type { FleetHearing } from '../../../common/fleet-condition.ts';
import { hopCountOf } from './fleet-bus.ts';
import { FleetMinutes, percent } from './fleet-minutes.ts';
import {
  addToTotals,
  emptyHopTotals,
  type FleetEvent,
  type HopCount,
  type HopTotals,
  type MinuteHopCount,
  type ScannerRecord,
} from './fleet-records.ts';
import { SeqRing } from './seq-ring.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The UTC day an instant falls on, as a day number: "today" for the Pets Found figure. */
export const utcDayOf = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * How long a removed bot's tombstone is kept: through Redis, a change of the bot published before its
 * removal can arrive after it, and must not bring the bot back.
 */
const TOMBSTONE_MS = 10 * MINUTE_MS;
/** Events (hops and discoveries) kept in memory for dashboards that reconnect with ?since=. */
export const EVENT_RING_SIZE = 5000;
/** Discoveries kept in memory for the feed's cursor reads. */
export const DISCOVERY_RING_SIZE = 5000;
/** What a dashboard's backfill holds of each. */
export const BACKFILL_HOPS = 200;
export const BACKFILL_DISCOVERIES = 200;
const TOP_HOPPERS = 10;

/**
 * The fleet as this instance knows it: scanners, the recent event stream, and hop statistics. Its own
 * bots' changes are applied here as they come, the other instances' as they send them (fleet-bus.ts),
 * so every instance agrees; nothing here touches the database.
 */
export class FleetState {
  readonly scanners = new Map<string, ScannerRecord>();
  readonly events = new SeqRing<FleetEvent & { seq: number }>(EVENT_RING_SIZE);
  readonly discoveries = new SeqRing<PetDiscovery>(DISCOVERY_RING_SIZE);
  readonly hops = new SeqRing<ServerHopEvent>(BACKFILL_HOPS);
  totals: HopTotals = emptyHopTotals();
  /** The last hour by the minute: rates, the chart and per-bot success rates. */
  private readonly minutes = new FleetMinutes();
  /** The highest seq applied. */
  head = 0;
  /** Discoveries on UTC day `day` (the Pets Found card: total discoveries today). */
  private petsToday = { day: 0, count: 0 };
  /** Bots removed lately -> when: what they reported before that is stale (see TOMBSTONE_MS). */
  private readonly removed = new Map<string, number>();

  /** `keptDays`: how many days of hops the database keeps, so the totals cover (FLEET_RETENTION_DAYS). */
  constructor(
    private readonly inactiveAfterMs: number,
    private readonly keptDays: number,
  ) {}

  /** What the database holds at start: scanners, the latest events, the last hour, and totals. */
  seed(data: {
    scanners: ScannerRecord[];
    hops: ServerHopEvent[];
    discoveries: PetDiscovery[];
    lastHourHops: MinuteHopCount[];
    lastHourFinds: Array<{ minute: number; discoveries: number }>;
    totals: HopTotals;
    petsToday: { day: number; count: number };
  }): void {
    this.petsToday = { ...data.petsToday };
    for (const s of data.scanners) this.scanners.set(s.ghostId, s);
    const events: Array<FleetEvent & { seq: number }> = [
      ...data.hops.map((hop) => ({ kind: 'hop' as const, hop, seq: hop.seq })),
      ...data.discoveries.map((discovery) => ({ kind: 'discovery' as const, discovery, seq: discovery.seq })),
    ].sort((a, b) => a.seq - b.seq);
    // Only the newest EVENT_RING_SIZE of both together are known to be complete.
    const kept = events.slice(-EVENT_RING_SIZE);
    for (const e of kept) this.events.add(e);
    if (events.length > kept.length) this.events.floor = (kept[0]?.seq ?? 1) - 1;
    for (const d of data.discoveries) this.discoveries.add(d);
    if (data.discoveries.length >= DISCOVERY_RING_SIZE)
      this.discoveries.floor = (data.discoveries[0]?.seq ?? 1) - 1;
    for (const h of data.hops) this.hops.add(h);
    for (const m of data.lastHourHops)
      this.minutes.countHop(m.minute * MINUTE_MS, m.botId, m.success, m.hops);
    for (const m of data.lastHourFinds) this.minutes.countDiscoveries(m.minute * MINUTE_MS, m.discoveries);
    this.totals = data.totals;
    this.head = Math.max(events.at(-1)?.seq ?? 0, this.head);
  }

  /** A hop in the event stream (what dashboards are sent); another instance's is counted by countHops. */
  addHop(hop: ServerHopEvent): void {
    this.head = Math.max(this.head, hop.seq);
    this.events.add({ kind: 'hop', hop, seq: hop.seq });
    this.hops.add(hop);
  }

  /** A hop of a bot of this instance, counted, and what it tells of its bot. */
  countHop(hop: ServerHopEvent): void {
    const at = Date.parse(hop.timestamp);
    this.countHops(hopCountOf(hop));
    const scanner = this.scanners.get(hop.botId);
    if (!scanner) return;
    scanner.lastActivity = Math.max(scanner.lastActivity, at);
    if (!hop.success) return;
    scanner.currentJobId = hop.toJobId;
    // A bot that hops again is working: the server's error flag is lifted.
    if (scanner.status === 'error') [scanner.status, scanner.errorReason] = ['active', null];
  }

  /** Hops counted in totals and by the minute (this instance's one by one, the others' as they send them). */
  countHops(count: HopCount): void {
    addToTotals(this.totals, count);
    this.minutes.countHop(count.minute, count.botId, count.success, count.hops);
  }

  applyDiscovery(discovery: PetDiscovery): void {
    const at = Date.parse(discovery.timestamp);
    this.head = Math.max(this.head, discovery.seq);
    this.events.add({ kind: 'discovery', discovery, seq: discovery.seq });
    this.discoveries.add(discovery);
    this.minutes.countDiscoveries(at, 1);
    const day = utcDayOf(at);
    if (day > this.petsToday.day) this.petsToday = { day, count: 1 };
    else if (day === this.petsToday.day) this.petsToday.count++;
    const scanner = this.scanners.get(discovery.botId);
    if (scanner) scanner.lastActivity = Math.max(scanner.lastActivity, at);
  }

  applyScanner(record: ScannerRecord): void {
    // A copy from before the bot's removal (it was first seen earlier); one that joins again is newer.
    const removedAt = this.removed.get(record.ghostId);
    if (removedAt !== undefined && record.firstSeen < removedAt) return;
    const known = this.scanners.get(record.ghostId);
    if (known && known.rev > record.rev) return;
    // A touch that crossed a newer report on the bus must not move lastActivity back.
    this.scanners.set(record.ghostId, {
      ...record,
      lastActivity: Math.max(record.lastActivity, known?.lastActivity ?? 0),
    });
  }

  /**
   * Removes a bot (the administrator's removal, or silence past FLEET_FORGET_AFTER_DAYS); its hops
   * and discoveries stay. Returns whether it was here.
   */
  forget(ghostId: string, at: number): boolean {
    // Insertion order is removal order: expired tombstones are at the front.
    for (const [id, removedAt] of this.removed) {
      if (removedAt > at - TOMBSTONE_MS) break;
      this.removed.delete(id);
    }
    this.removed.delete(ghostId);
    this.removed.set(ghostId, at);
    return this.scanners.delete(ghostId);
  }

  touch(ghostId: string, at: number): void {
    const scanner = this.scanners.get(ghostId);
    if (scanner) scanner.lastActivity = Math.max(scanner.lastActivity, at);
  }

  /** Whether the bot has sent anything within FLEET_INACTIVE_AFTER_MS (whatever status it reports). */
  isHeard(scanner: ScannerRecord, now: number): boolean {
    return now - scanner.lastActivity <= this.inactiveAfterMs;
  }

  /** The status dashboards see: a silent bot is `inactive` (unless the server flagged it `error`). */
  effectiveStatus(scanner: ScannerRecord, now: number): ScannerStatus {
    if (scanner.status === 'error') return 'error';
    return this.isHeard(scanner, now) ? scanner.status : 'inactive';
  }

  scannerList(now: number): Scanner[] {
    const byBot = this.minutes.hopsByBot(now);
    return [...this.scanners.values()]
      .sort((a, b) => a.firstSeen - b.firstSeen || a.ghostId.localeCompare(b.ghostId))
      .map((s) => {
        const hops = byBot.get(s.ghostId);
        return {
          id: s.ghostId,
          botId: s.ghostId,
          status: this.effectiveStatus(s, now),
          scansPerMinute: s.scansPerMinute,
          petsFound: s.petsFound,
          uptime: s.uptime,
          // The last hour's hops; 100 for a bot that has not hopped in it (nothing failed).
          hopSuccessRate: hops ? percent(hops.ok, hops.hops) : 100,
          currentJobId: s.currentJobId,
          lastActivity: new Date(s.lastActivity).toISOString(),
        };
      });
  }

  /** Which of the known bots the fleet heard from lately, and the last one it heard (fleet-condition.ts). */
  hearing(now: number): FleetHearing {
    let heardBots = 0;
    let last: ScannerRecord | null = null;
    for (const s of this.scanners.values()) {
      if (this.isHeard(s, now)) heardBots++;
      if (!last || s.lastActivity > last.lastActivity) last = s;
    }
    return {
      expectedBots: this.scanners.size,
      heardBots,
      lastHeardAt: last ? last.lastActivity : null,
      lastHeardFrom: last ? last.ghostId : null,
    };
  }

  /** The bots by the status dashboards see (network stats, metrics). */
  countByStatus(now: number): Record<ScannerStatus, number> {
    const counts: Record<ScannerStatus, number> = {
      active: 0,
      scanning: 0,
      hopping: 0,
      inactive: 0,
      error: 0,
    };
    for (const s of this.scanners.values()) counts[this.effectiveStatus(s, now)]++;
    return counts;
  }

  /**
   * Spec section 4: counts by status, the active scanners' scan rate, discoveries today (UTC), the
   * mean uptime, and health as active over total.
   */
  networkStats(now: number): NetworkStats {
    const counts = this.countByStatus(now);
    let scans = 0;
    let uptime = 0;
    for (const s of this.scanners.values()) {
      const status = this.effectiveStatus(s, now);
      // Spec: Scans/Min across active scanners; a silent or failed bot's last rate is stale.
      if (status === 'active' || status === 'scanning') scans += s.scansPerMinute;
      uptime += s.uptime;
    }
    const total = this.scanners.size;
    const activeBots = counts.active + counts.scanning;
    return {
      totalBots: total,
      activeBots,
      inactiveBots: counts.inactive,
      hoppingBots: counts.hopping,
      scanningBots: counts.scanning,
      errorBots: counts.error,
      totalScansPerMinute: scans,
      totalPetsFound: this.petsToday.day === utcDayOf(now) ? this.petsToday.count : 0,
      averageUptime: total > 0 ? uptime / total : 0,
      networkHealth: total > 0 ? Math.round((activeBots / total) * 100) : INITIAL_NETWORK_HEALTH,
    };
  }

  hopStats(now: number): HopStats {
    const t = this.totals;
    const successRate15m = this.minutes.successRate(now, 15);
    const successRate30m = this.minutes.successRate(now, 30);
    const topHoppers = [...t.byBot]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_HOPPERS)
      .map(([botId, hops]) => ({ botId, hops }));
    return {
      totalHops: t.totalHops,
      successfulHops: t.successfulHops,
      failedHops: t.totalHops - t.successfulHops,
      averageLatency: t.totalHops > 0 ? Math.round(t.latencySum / t.totalHops) : 0,
      hopsByReason: { ...t.byReason },
      topHoppers,
      successRate15m,
      successRate30m,
      // Spec: Improving when the 15-minute rate is at least the 30-minute one; none without hops.
      trend: successTrend(successRate15m, successRate30m),
      lastHour: this.minutes.lastHour(now),
      keptDays: this.keptDays,
    };
  }

  /** Retention: forgets events older than `before` (the database deletes them too). */
  dropBefore(before: number): void {
    this.events.dropWhere(
      (e) => Date.parse(e.kind === 'hop' ? e.hop.timestamp : e.discovery.timestamp) < before,
    );
    this.discoveries.dropWhere((d) => Date.parse(d.timestamp) < before);
    this.hops.dropWhere((h) => Date.parse(h.timestamp) < before);
  }
}
