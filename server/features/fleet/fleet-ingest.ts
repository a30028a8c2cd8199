import type { FastifyBaseLogger } from 'fastify';
import type { BotMessageType } from '../../../common/fleet.ts';
import { parsePetValue } from '../../../common/pet-value.ts';
import type { AppContext } from '../../context.ts';
import { RowSetAsideError } from '../../db/batch-writer.ts';
import { type BusFleetMessage, type BusHopMessage, FLEET_CHANNEL, FLEET_HOPS_CHANNEL } from './fleet-bus.ts';
import {
  discoveryOf,
  hopOf,
  type Payload,
  scannerAfterHello,
  scannerAfterStatus,
  scannerFlagged,
} from './fleet-changes.ts';
import type { FleetLive } from './fleet-live.ts';
import type { FleetOutbox } from './fleet-outbox.ts';
import { type FleetPersistence, hopRows } from './fleet-persistence.ts';
import type { ScannerRecord } from './fleet-records.ts';
import type { RecentPets } from './fleet-sequence.ts';
import { SequenceUnavailable } from './fleet-sequence.ts';
import type { FleetState } from './fleet-state.ts';
import { FLEET_TEXTS, SEQUENCE_RETRY_SECONDS, WRITER_FULL_RETRY_SECONDS } from './fleet-texts.ts';

/** A hop or find that got no position (Redis away): refused with 503, the bot sends it again. */
function unavailable(err: unknown): Applied {
  if (!(err instanceof SequenceUnavailable)) throw err;
  const error = FLEET_TEXTS.sequenceUnavailable;
  return { result: { ok: false, status: 503, error, retryAfterSeconds: SEQUENCE_RETRY_SECONDS } };
}

/** What one accepted bot message did (answered once its rows are committed). */
export type BotMessageResult =
  | { ok: true; seq?: number; duplicate?: true }
  | { ok: false; status: number; error: string; retryAfterSeconds?: number };

/** What one bot message did, and the commit of its rows (when it wrote any) still to come. */
interface Applied {
  result: BotMessageResult;
  written?: Promise<void>;
}

/** The answer once the message's rows are committed; a row the database refused is a 422, not a success. */
async function settle({ result, written }: Applied): Promise<BotMessageResult> {
  try {
    await written;
    return result;
  } catch (error) {
    if (error instanceof RowSetAsideError) return { ok: false, status: 422, error: error.message };
    throw error;
  }
}

/**
 * Bot messages in: checks each against the fleet (room, hello first, the writer's room), drops a
 * pet already reported, gives each hop and discovery its stream position (`seq`), applies the change
 * here and hands its rows to the writer: this instance is the one that writes its bots' rows. The
 * others hear of it as fleet-bus.ts says (a find at once, the rest coalesced by the outbox).
 */
export class FleetIngest {
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly state: FleetState,
    private readonly live: FleetLive,
    private readonly persistence: FleetPersistence,
    private readonly recentPets: RecentPets,
    private readonly nextSeq: () => Promise<number>,
    private readonly outbox: FleetOutbox,
  ) {}

  /**
   * Whether `ghostId` may join. A bot the fleet holds always may, and so may an enrolled bot: each
   * enrollment holds its place among FLEET_MAX_BOTS, connected or not. A new bot without a
   * credential (the shared token) takes a place left over: while the bots without one that the
   * fleet holds, plus the enrolled ones, are fewer than FLEET_MAX_BOTS. So made-up ids never take
   * an enrolled bot's place.
   */
  hasRoomFor(ghostId: string): boolean {
    const { enrolledBots } = this.ctx.services;
    if (this.state.scanners.has(ghostId) || enrolledBots.has(ghostId)) return true;
    let unenrolled = 0;
    for (const held of this.state.scanners.keys()) if (!enrolledBots.has(held)) unenrolled++;
    return unenrolled + enrolledBots.size < this.ctx.config.FLEET_MAX_BOTS;
  }

  /** See Fleet.begin. */
  async begin<T extends BotMessageType>(
    ghostId: string,
    type: T,
    payload: Payload<T>,
    acknowledged: boolean,
  ): Promise<{ result: BotMessageResult; settled: Promise<BotMessageResult> }> {
    const applied = await this.applyMessage(ghostId, type, payload, acknowledged);
    const settled = settle(applied);
    settled.catch(() => {});
    return { result: applied.result, settled };
  }

  /** See Fleet.acceptAll. */
  async acceptAll(
    ghostId: string,
    messages: Array<{ type: BotMessageType; payload: unknown }>,
  ): Promise<{ results: BotMessageResult[]; refused?: { index: number; result: BotMessageResult } }> {
    const applied: Applied[] = [];
    let refused: { index: number; result: BotMessageResult } | undefined;
    for (const [index, message] of messages.entries()) {
      const next = await this.applyMessage(ghostId, message.type, message.payload as never);
      if (!next.result.ok) {
        refused = { index, result: next.result };
        break;
      }
      applied.push(next);
    }
    const results: BotMessageResult[] = [];
    for (const entry of applied) {
      const result = await settle(entry);
      if (!result.ok) return { results, refused: { index: results.length, result } };
      results.push(result);
    }
    return refused ? { results, refused } : { results };
  }

  /** Flags a bot `error` with a reason (see markBotError in fleet.service.ts). */
  async markBotError(ghostId: string, reason: string): Promise<void> {
    const now = this.ctx.now();
    const known = this.state.scanners.get(ghostId);
    if (!known && !this.hasRoomFor(ghostId)) return;
    const { written } = await this.publishScanner(scannerFlagged(ghostId, known, reason, now));
    await written;
  }

  /** What a message did, with the commit of its rows still to come. */
  private async applyMessage<T extends BotMessageType>(
    ghostId: string,
    type: T,
    payload: Payload<T>,
    acknowledged = true,
  ): Promise<Applied> {
    const now = this.ctx.now();
    if (!this.persistence.hasRoomFor(1)) {
      const error = FLEET_TEXTS.writerFull;
      return { result: { ok: false, status: 429, error, retryAfterSeconds: WRITER_FULL_RETRY_SECONDS } };
    }
    if (type === 'hello') {
      const { version } = payload as Payload<'hello'>;
      return this.hello(ghostId, version, now);
    }
    if (!this.state.scanners.has(ghostId)) {
      const joined = await this.hello(ghostId, null, now);
      if (!joined.result.ok) return joined;
    }
    switch (type) {
      case 'scanner_status':
        return this.statusReport(ghostId, payload as Payload<'scanner_status'>, now, acknowledged);
      case 'server_hop':
        return this.hop(ghostId, payload as Payload<'server_hop'>, now, acknowledged);
      case 'pet_discovered':
        return this.discovery(ghostId, payload as Payload<'pet_discovered'>, now, acknowledged);
      case 'config_ack': {
        const ack = payload as Payload<'config_ack'>;
        if (!ack.ok)
          this.log.warn({ ghostId, version: ack.version, error: ack.error }, 'bot refused a configuration');
        return this.touch(ghostId, now);
      }
      default:
        return this.touch(ghostId, now);
    }
  }

  private async hello(ghostId: string, version: string | null, now: number): Promise<Applied> {
    if (!this.hasRoomFor(ghostId)) {
      return { result: { ok: false, status: 409, error: FLEET_TEXTS.full(this.ctx.config.FLEET_MAX_BOTS) } };
    }
    const scanner = scannerAfterHello(ghostId, this.state.scanners.get(ghostId), version, now);
    return { result: { ok: true }, ...(await this.publishScanner(scanner)) };
  }

  private async statusReport(
    ghostId: string,
    report: Payload<'scanner_status'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    const known = this.state.scanners.get(ghostId);
    if (!known) return { result: { ok: false, status: 409, error: FLEET_TEXTS.sayHello } };
    const scanner = scannerAfterStatus(known, report, now);
    return { result: { ok: true }, ...(await this.publishScanner(scanner, acknowledged)) };
  }

  private async hop(
    ghostId: string,
    report: Payload<'server_hop'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    const seq = await this.nextSeq().catch(unavailable);
    if (typeof seq !== 'number') return seq;
    const hop = hopOf(ghostId, seq, report, now);
    this.live.ownHop(hop);
    // For the other instances' dashboards: Redis hands it only to those that have some (fleet-watch.ts).
    if (this.ctx.bus.commands) {
      const message: BusHopMessage = { kind: 'hop', hop, from: this.outbox.instance };
      await this.ctx.bus.publish(FLEET_HOPS_CHANNEL, message);
    }
    this.ctx.services.metrics.hop(hop.success);
    this.persistence.touch(ghostId);
    return { result: { ok: true, seq }, written: this.persistence.persist(hopRows, hop, acknowledged) };
  }

  private async discovery(
    ghostId: string,
    report: Payload<'pet_discovered'>,
    now: number,
    acknowledged: boolean,
  ): Promise<Applied> {
    // Several bots in one server see the same pet: the first report within a minute is the one kept.
    // The value is part of what makes it the same pet: one server often holds several of a kind with
    // other mutations, and the dearer must not be folded into the cheaper. Parsed, so two bots' texts
    // of one value ('$6M/s', '$6.0M/s') still agree; a text that does not parse counts as written.
    const value = parsePetValue(report.value) || report.value.trim();
    const pet = JSON.stringify([report.name, value, report.jobid]);
    const first = await this.recentPets.claim(pet, now);
    if (!first) {
      await this.touch(ghostId, now);
      return { result: { ok: true, duplicate: true } };
    }
    const seq = await this.nextSeq().catch(unavailable);
    if (typeof seq !== 'number') {
      await this.recentPets.release(pet);
      return seq;
    }
    const discovery = discoveryOf(ghostId, seq, report, now);
    await this.ctx.bus.publish(FLEET_CHANNEL, { kind: 'discovery', discovery } satisfies BusFleetMessage);
    this.ctx.services.metrics.find(discovery.value);
    this.persistence.touch(ghostId);
    const written = this.persistence.persist(this.persistence.discoveryRows, discovery, acknowledged);
    return { result: { ok: true, seq }, written };
  }

  private async touch(ghostId: string, now: number): Promise<Applied> {
    this.state.touch(ghostId, now);
    this.outbox.scannerChanged(ghostId);
    this.live.stateChanged();
    // A sign of life only: written with the next batch, nobody waits for it.
    this.persistence.touch(ghostId);
    return { result: { ok: true } };
  }

  /** Applies a scanner's new state (the outbox sends it on); `written` resolves once its row is committed. */
  private async publishScanner(
    scanner: ScannerRecord,
    acknowledged = true,
  ): Promise<{ written?: Promise<void> }> {
    // Applied here at once (the next message of the same batch reads it); the others get the bot's
    // latest record with the outbox's next `changes`.
    this.state.applyScanner(scanner);
    this.live.stateChanged();
    this.outbox.scannerChanged(scanner.ghostId);
    const written = this.persistence.persist(this.persistence.scannerRows, scanner.ghostId, acknowledged);
    return { written };
  }
}
