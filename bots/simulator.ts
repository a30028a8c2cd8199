import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { z } from 'zod';
import { type BotParameters, BotParametersSchema, type ConfigFramePayload } from '../common/configuration.ts';
import type { HopReason, ScannerStatus } from '../common/fleet.ts';
import { MAX_POOL_SERVERS_PER_CALL } from '../common/server-pool.ts';
import { type BotCredentials, processCredentials } from './credentials.ts';
import { enrollBot } from './enrollment.ts';
import type { SimulatorOptions } from './options.ts';
import { ghostIds } from './options.ts';
import { drawPet, type Random } from './pets.ts';

/*
 * A fleet of simulated scanner bots that speaks only the public protocol: each bot enrolls with the
 * shared bot token (POST /api/bot/enroll) and speaks with its own botToken from then on, on /ws
 * (hello, heartbeat, scanner_status, server_hop, pet_discovered, config_ack) and in the server pool's
 * HTTP calls (servers, claim, release). It reacts to the server's `config`, `emergency_stop` and
 * `emergency_resume` frames as a real bot would; options make some bots ignore or refuse configs.
 * --http-bots bots have no socket: they post the same messages to POST /api/bot/events every
 * HTTP_POLL_MS (a heartbeat when idle) and take the same frames from its answers.
 */

export const SIMULATOR_VERSION = 'sim-1.0.0';
const HEARTBEAT_MS = 10_000;
/** How often an HTTP bot posts its waiting messages (a heartbeat when it has none), and so hears its frames. */
export const HTTP_POLL_MS = 3_000;
const RECONNECT_BASE_MS = 1_000;
const RECONNECT_MAX_MS = 10_000;
/** A failed hop is retried at once on another server, up to this many attempts. */
const MAX_ATTEMPTS = 3;
/**
 * After each (re)connect a bot waits this long before hopping: the server tells a bot that connects
 * while the network is stopped to stop at once, and that word must land before the bot's first hop.
 */
export const HELLO_SETTLE_MS = 1_000;
/** What a bot started with --failing-bots answers to every `config` frame. */
export const SIMULATED_CONFIG_FAILURE =
  'Configuration rejected: the scanner could not apply it (simulated failure)';

/** What a failed hop says, by reason: messages as Roblox teleports and joins report them. */
const FAILURES: Array<{ reason: HopReason; outcome: 'full' | 'error'; messages: string[] }> = [
  {
    reason: 'server_full',
    outcome: 'full',
    messages: [
      'Teleport failed: the server is full (GameFull)',
      'Requested experience is full. Please try again later. (Error Code: 772)',
    ],
  },
  {
    reason: 'error_recovery',
    outcome: 'error',
    messages: [
      'Teleport failed: GameEnded (the server has shut down)',
      'Lost connection to the game server, please reconnect (Error Code: 277)',
      'Connection attempt failed. (Error Code: 279): ID17 timed out after 15 s',
      'HTTP 429 (Too Many Requests) from TeleportService',
      'Teleport failed: Unauthorized (Error Code: 773)',
    ],
  },
];

export interface SimulatorCounters {
  connected: number;
  hops: number;
  failedHops: number;
  discoveries: number;
  /** Server error frames, refused HTTP calls and socket errors. */
  errors: number;
  lastError: string | null;
  /** Claims the pool could not serve (it was empty). */
  poolEmpty: number;
  /** Claims the server refused (4xx other than an empty pool: a bad call, a credential, a rate limit). */
  claimsRefused: number;
  /** Claims that failed (5xx, or no answer). */
  claimsFailed: number;
  /** `config` frames applied and acknowledged. */
  configsApplied: number;
  /** `config` frames refused with `config_ack {ok: false}` (invalid, or a --failing-bots bot). */
  configsRefused: number;
  /** `config` frames a --silent-bots bot left unanswered. */
  configsIgnored: number;
}

/** A hop or find the server confirmed stored: its `ack` frame carried the row's stream position. */
export interface AcknowledgedEvent {
  ghostId: string;
  type: 'server_hop' | 'pet_discovered';
  seq: number;
}

/** How many bots enroll at once when the simulator starts. */
const ENROLLING_AT_ONCE = 8;

/** How a bot treats `config` frames (see the --silent-bots and --failing-bots options). */
export type ConfigRole = 'applies' | 'silent' | 'failing';

interface ClaimedServer {
  jobId: string;
  placeId: string;
}

type Log = (line: string) => void;

const jitter = (ms: number, random: Random, spread = 0.2) => ms * (1 - spread + 2 * spread * random());

/**
 * How long a bot waits before its reconnect number `attempt` (from 0): exponential backoff, doubling
 * from RECONNECT_BASE_MS up to RECONNECT_MAX_MS, with "equal jitter" (a random point in the upper
 * half of that span), so a fleet whose server restarts spreads its reconnects over the span instead
 * of arriving at one instant, yet every bot is back within RECONNECT_MAX_MS of the server's return.
 * A 429's Retry-After (`notBeforeMs` from now) is waited out.
 */
export function reconnectDelayMs(attempt: number, random: Random, notBeforeMs = 0): number {
  const span = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 30));
  return Math.max(span / 2 + (span / 2) * random(), notBeforeMs);
}

/** One line naming what is wrong with a `config` frame's parameters, for its `config_ack`. */
function describeIssues(error: z.ZodError): string {
  const text = error.issues
    .map((issue) => {
      const field = issue.path.join('.');
      // The schema's messages name their field already; the generic ones (type, unknown key) do not.
      return field && !issue.message.includes(field) ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
  return `invalid parameters: ${text}`.slice(0, 500);
}

/** One simulated bot: its socket (reconnected with backoff), its hop loop and its pool server. */
class SimulatedBot {
  socket: WebSocket | null = null;
  /** Its own botToken once enrolled (or the shared token, from a server without enrollment). */
  token: string | null = null;
  /** Refused for good (a close code that says so, or its credential refused): no more reconnects or posts. */
  refused = false;
  current: ClaimedServer | null = null;
  status: ScannerStatus = 'active';
  petsFound = 0;
  hopIntervalMs: number;
  /** The version of the configuration it runs; null until the server sends one. */
  configVersion: number | null = null;
  /** The parameters it runs; null until the server sends a configuration. */
  parameters: BotParameters | null = null;
  /** Stopped by an emergency stop: no hops until resumed. */
  paused = false;
  readonly configRole: ConfigRole;
  /** Speaks only POST /api/bot/events (--http-bots): no socket. */
  readonly http: boolean;
  /** An HTTP bot's messages waiting for its next post. */
  private outbox: Array<{ type: string; payload: unknown; id: string }> = [];
  /** An HTTP bot's last post was answered 200 (what `connected` means for it). */
  private httpUp = false;
  private posting: Promise<void> | null = null;
  /** The server said emergency_stop on the current connection. */
  private stopHeard = false;
  /** No hops before this time: the current connection is settling (HELLO_SETTLE_MS). */
  private settledAt = Number.POSITIVE_INFINITY;
  private lastHopAt: number | null = null;
  private nextHopAt = 0;
  private reconnectAttempt = 0;
  /** A 429's Retry-After: no reconnect before this time (epoch ms). */
  private retryNotBefore = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Ends the current nap early (a config or emergency frame, or the simulator stopping). */
  private wakeUp: (() => void) | null = null;
  private readonly startedAt = Date.now();
  private scans = 0;
  private hopsTried = 0;
  private hopsOk = 0;
  /** Hops and finds sent on the current socket and not yet acknowledged, by frame id. */
  private readonly unacknowledged = new Map<string, AcknowledgedEvent['type']>();

  constructor(
    readonly ghostId: string,
    private readonly fleet: Simulator,
  ) {
    this.hopIntervalMs = fleet.options.hopIntervalMs;
    this.configRole = fleet.options.silentBots.includes(ghostId)
      ? 'silent'
      : fleet.options.failingBots.includes(ghostId)
        ? 'failing'
        : 'applies';
    this.http = fleet.options.httpBots.includes(ghostId);
  }

  get connected(): boolean {
    return this.http ? this.httpUp : this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    if (this.fleet.stopping || this.token === null || this.refused) return;
    if (this.http) {
      this.startPolling();
      return;
    }
    const { options } = this.fleet;
    // ?ghostId= names the bot, so the server counts its upgrades against it, not the shared address.
    const url = `${options.url.replace(/^http/, 'ws')}/ws?ghostId=${encodeURIComponent(this.ghostId)}`;
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    this.socket = socket;
    socket.on('open', () => {
      this.reconnectAttempt = 0;
      this.stopHeard = false;
      this.settledAt = Date.now() + HELLO_SETTLE_MS;
      this.send('hello', { ghostId: this.ghostId, version: SIMULATOR_VERSION });
      this.reportStatus(this.paused ? 'inactive' : this.current ? 'scanning' : 'active');
      this.heartbeat = setInterval(() => this.send('heartbeat', {}), HEARTBEAT_MS);
    });
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('upgrade', (response) => this.fleet.onSocketOpened?.(this.ghostId, response.headers));
    socket.on('unexpected-response', (_request, response) => {
      const retryAfter = Number(response.headers['retry-after']);
      if (retryAfter > 0) this.retryNotBefore = Date.now() + retryAfter * 1000;
      // Its credential is refused (revoked, or the shared token with BOT_TOKEN_LEGACY off): for good.
      if (response.statusCode === 401) this.refused = true;
      const hint = response.statusCode === 401 ? ' (its credential is refused), not reconnecting' : '';
      this.fleet.error(`${this.ghostId}: /ws answered ${response.statusCode}${hint}`);
      socket.terminate();
    });
    socket.on('error', (error) => this.fleet.error(`${this.ghostId}: ${error.message}`));
    socket.on('close', (code, reason) => {
      clearInterval(this.heartbeat);
      // What the server has not acknowledged by now it may not have stored.
      this.unacknowledged.clear();
      if (this.socket === socket) this.socket = null;
      if (this.fleet.stopping || this.refused) return;
      // Refused for good (docs/rules-fleet.md, "Bot close codes"): 4400 bad hello, 4401 its credential
      // revoked or replaced, 4403 removed by the administrator, 4409 the fleet is full. Reconnecting
      // would be refused again.
      if (code === 4400 || code === 4401 || code === 4403 || code === 4409) {
        this.refused = true;
        this.fleet.error(`${this.ghostId}: refused (${code} ${String(reason)}), not reconnecting`);
        return;
      }
      // Backoff with jitter, so a fleet does not knock on a restarting server at the same instant.
      const delay = reconnectDelayMs(
        this.reconnectAttempt,
        this.fleet.random,
        this.retryNotBefore - Date.now(),
      );
      this.reconnectAttempt += 1;
      setTimeout(() => this.connect(), delay).unref();
    });
  }

  /** An HTTP bot: hello, then a post every HTTP_POLL_MS whether it has something to say or not. */
  private startPolling(): void {
    this.settledAt = Date.now() + HELLO_SETTLE_MS;
    this.outbox.push({
      type: 'hello',
      payload: { ghostId: this.ghostId, version: SIMULATOR_VERSION },
      id: randomUUID(),
    });
    this.reportStatus('active');
    const tick = async () => {
      if (this.fleet.stopping || this.refused) return;
      await this.post();
      setTimeout(() => void tick(), HTTP_POLL_MS).unref();
    };
    void tick();
  }

  /**
   * Posts the outbox (a heartbeat when empty) and handles the frames of the answer. What a refused
   * post carried is sent again with the next one (up to the server's batch size).
   */
  post(): Promise<void> {
    this.posting ??= (async () => {
      const events = this.outbox.splice(0, 100);
      if (events.length === 0) events.push({ type: 'heartbeat', payload: {}, id: randomUUID() });
      try {
        const { status, json } = await this.fleet.api(
          '/api/bot/events',
          { ghostId: this.ghostId, events },
          this.token,
        );
        if (status !== 200) {
          this.httpUp = false;
          // Its credential is refused (revoked): it stops posting.
          if (status === 401) this.refused = true;
          // A bad batch would be refused for ever: only what the server could not take now is kept.
          if (status === 429 || status >= 500)
            this.outbox.unshift(...events.filter((e) => e.type !== 'heartbeat'));
          this.fleet.error(`${this.ghostId}: /api/bot/events answered ${status} ${describe(json)}`);
          return;
        }
        this.httpUp = true;
        const answer = json as { results?: Array<{ index: number; seq?: number }>; frames?: unknown[] };
        for (const result of answer.results ?? []) {
          const event = events[result.index];
          if (
            event &&
            typeof result.seq === 'number' &&
            (event.type === 'server_hop' || event.type === 'pet_discovered')
          )
            this.fleet.onAcknowledged?.({ ghostId: this.ghostId, type: event.type, seq: result.seq });
        }
        for (const frame of answer.frames ?? [])
          this.handleFrame(frame as { type?: unknown; payload?: unknown });
      } catch (error) {
        this.httpUp = false;
        this.outbox.unshift(...events.filter((e) => e.type !== 'heartbeat'));
        this.fleet.error(`${this.ghostId}: /api/bot/events: ${(error as Error).message}`);
      }
    })().finally(() => {
      this.posting = null;
    });
    return this.posting;
  }

  send(type: string, payload: unknown): void {
    if (this.http) {
      this.outbox.push({ type, payload, id: randomUUID() });
      return;
    }
    if (!this.connected) return;
    const id = randomUUID();
    if ((type === 'server_hop' || type === 'pet_discovered') && this.fleet.onAcknowledged) {
      this.unacknowledged.set(id, type);
    }
    this.socket!.send(JSON.stringify({ type, payload, id, timestamp: new Date().toISOString() }));
  }

  /** An `ack` (stored, at stream position `seq`) or an `error` naming a frame this bot sent. */
  private settle(payload: Record<string, unknown>, acknowledged: boolean): void {
    const { requestId, seq } = payload;
    if (typeof requestId !== 'string') return;
    const type = this.unacknowledged.get(requestId);
    if (!type) return;
    this.unacknowledged.delete(requestId);
    if (acknowledged && typeof seq === 'number')
      this.fleet.onAcknowledged?.({ ghostId: this.ghostId, type, seq });
  }

  private receive(text: string): void {
    let frame: { type?: unknown; payload?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    this.handleFrame(frame);
  }

  /** A frame from the server, off the socket or out of an HTTP bot's answer. */
  private handleFrame(frame: { type?: unknown; payload?: unknown }): void {
    const payload = (frame.payload ?? {}) as Record<string, unknown>;
    switch (frame.type) {
      case 'config':
        this.applyConfig(payload);
        break;
      case 'emergency_stop':
        this.stopHeard = true;
        this.paused = true;
        this.reportStatus('inactive');
        this.wake();
        break;
      case 'emergency_resume':
        this.resume();
        break;
      case 'ack':
        this.settle(payload, true);
        break;
      case 'error':
        this.settle(payload, false);
        this.fleet.error(`${this.ghostId}: server said ${String(payload.error)}`);
        break;
      default:
        // heartbeat answers and anything newer than this simulator: nothing to do.
        break;
    }
  }

  private resume(): void {
    this.paused = false;
    this.reportStatus(this.current ? 'scanning' : 'active');
    this.wake();
  }

  /**
   * A `config` frame ({version, parameters}, common/configuration.ts): valid parameters are applied
   * (the hop interval follows hopFrequencyMs) and acknowledged; invalid ones are refused with the
   * reason. A silent bot answers nothing; a failing bot refuses everything.
   */
  private applyConfig(payload: Record<string, unknown>): void {
    const { counters } = this.fleet;
    const version = payload.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      // Without a version there is nothing to acknowledge.
      this.fleet.error(`${this.ghostId}: config frame without a version`);
      return;
    }
    if (this.configRole === 'silent') {
      counters.configsIgnored += 1;
      return;
    }
    const refuse = (error: string) => {
      counters.configsRefused += 1;
      this.send('config_ack', { version, ok: false, error });
    };
    if (this.configRole === 'failing') {
      refuse(SIMULATED_CONFIG_FAILURE);
      return;
    }
    const parsed = BotParametersSchema.safeParse(payload.parameters);
    if (!parsed.success) {
      refuse(describeIssues(parsed.error));
      return;
    }
    const frame: ConfigFramePayload = { version, parameters: parsed.data };
    this.configVersion = frame.version;
    this.parameters = frame.parameters;
    this.hopIntervalMs = frame.parameters.hopFrequencyMs;
    // The next hop comes one new interval after the last one (or within one, before the first).
    this.nextHopAt =
      this.lastHopAt === null
        ? Date.now() + this.fleet.random() * this.hopIntervalMs
        : this.lastHopAt + jitter(this.hopIntervalMs, this.fleet.random);
    this.wake();
    counters.configsApplied += 1;
    this.send('config_ack', { version, ok: true });
  }

  reportStatus(status: ScannerStatus): void {
    this.status = status;
    const minutes = Math.max((Date.now() - this.startedAt) / 60_000, 1 / 60);
    this.send('scanner_status', {
      status,
      scansPerMinute: Math.round((this.scans / minutes) * 10) / 10,
      petsFound: this.petsFound,
      // Share of hop attempts that landed: what "uptime" means for a bot that lives on hops.
      uptime: this.hopsTried === 0 ? 100 : Math.round((this.hopsOk / this.hopsTried) * 1000) / 10,
      currentJobId: this.current?.jobId ?? null,
    });
  }

  /** Hops, then scans its server until the next hop; holds while stopped. Ends when the simulator stops. */
  async run(): Promise<void> {
    const { fleet } = this;
    // Spread the fleet's first hops over one interval.
    this.nextHopAt = Date.now() + fleet.random() * this.hopIntervalMs;
    while (!fleet.stopping) {
      const holdMs = this.holdMs();
      if (holdMs > 0) {
        await this.nap(holdMs);
        continue;
      }
      if (Date.now() >= this.nextHopAt) {
        await this.hop();
        this.lastHopAt = Date.now();
        this.nextHopAt = this.lastHopAt + jitter(this.hopIntervalMs, fleet.random);
        continue;
      }
      await this.scan(this.nextHopAt);
    }
  }

  /** How long to wait before looking again when the bot may not hop now (0 when it may). */
  private holdMs(): number {
    if (!this.connected) return 500;
    const settling = this.settledAt - Date.now();
    if (settling > 0) return Math.min(settling, 500);
    if (this.paused && !this.stopHeard) {
      // Stopped before its socket dropped, and the server did not repeat the stop after this hello:
      // the network was resumed while the bot was away.
      this.resume();
    }
    return this.paused ? 500 : 0;
  }

  /** Resolves true after `ms`, or false at once when woken (see wake) or stopping. */
  private nap(ms: number): Promise<boolean> {
    if (this.fleet.stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve(true);
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve(false);
      };
    });
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** One scan tick on the current server: maybe a find. False when woken early. */
  private async scan(until: number): Promise<boolean> {
    const tick = Math.min(1_000, until - Date.now());
    if (tick <= 0) return false;
    const napped = await this.nap(tick);
    if (!napped || !this.current) return napped;
    this.scans += 1;
    const findsPerTick = (this.fleet.options.discoveryRate / 60_000) * tick;
    if (this.fleet.random() < findsPerTick) this.discover();
    return true;
  }

  private discover(): void {
    if (!this.current) return;
    const pet = drawPet(this.fleet.random);
    this.petsFound += pet.count;
    this.fleet.counters.discoveries += 1;
    this.send('pet_discovered', {
      name: pet.name,
      type: pet.type,
      value: pet.value,
      count: pet.count,
      placeid: this.current.placeId,
      jobid: this.current.jobId,
    });
  }

  /** Claims a server and joins it, retrying on another one when the join fails. */
  private async hop(): Promise<void> {
    const { fleet } = this;
    this.reportStatus('hopping');
    let reason: HopReason = pickReason(fleet.random);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !fleet.stopping && !this.paused; attempt++) {
      const target = await fleet.claim(this.ghostId);
      if (!target) break;
      if (this.paused || fleet.stopping) {
        // Stopped while the claim was under way: a stopped bot joins nothing and reports no hop.
        await fleet.release(this.ghostId, target.jobId, 'ok');
        break;
      }
      const latencyMs = Math.round(150 + fleet.random() ** 2 * 2_500);
      const failed = fleet.random() < fleet.options.failureRate;
      const failure = failed ? FAILURES[fleet.random() < 0.4 ? 0 : 1]! : null;
      this.hopsTried += 1;
      fleet.counters.hops += 1;
      fleet.onHopSent?.(this.ghostId, target.jobId);
      this.send('server_hop', {
        fromJobId: this.current?.jobId ?? null,
        toJobId: target.jobId,
        fromPlaceId: this.current?.placeId ?? null,
        toPlaceId: target.placeId,
        success: !failure,
        latencyMs,
        errorMessage: failure ? pickFrom(failure.messages, fleet.random) : null,
        hopReason: failure ? failure.reason : reason,
        attemptNumber: attempt,
        totalServersAttempted: attempt,
      });
      if (failure) {
        fleet.counters.failedHops += 1;
        await fleet.release(this.ghostId, target.jobId, failure.outcome);
        reason = failure.reason;
        continue;
      }
      this.hopsOk += 1;
      const previous = this.current;
      this.current = target;
      if (previous) await fleet.release(this.ghostId, previous.jobId, 'ok');
      break;
    }
    this.reportStatus(this.paused ? 'inactive' : this.current ? 'scanning' : 'error');
  }

  /** Leaves its server and closes its socket normally (1000). */
  async shutdown(): Promise<void> {
    if (this.current) {
      const { jobId } = this.current;
      this.current = null;
      await this.fleet.release(this.ghostId, jobId, 'ok');
    }
    this.reportStatus('inactive');
    clearInterval(this.heartbeat);
    this.socket?.close(1000, 'Simulator stopped');
    // An HTTP bot's last words (its release, 'inactive') go in one final post.
    if (this.http && this.token !== null && !this.refused) {
      await this.posting;
      await this.post();
    }
  }
}

function pickFrom<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** Why a bot hops when nothing went wrong: mostly its scan schedule. */
function pickReason(random: Random): HopReason {
  const r = random();
  if (r < 0.8) return 'auto_scan';
  if (r < 0.95) return 'performance';
  return 'manual';
}

/** The whole fleet: the bots, the pool stocking, the counters and the status line. */
export class Simulator {
  readonly counters: SimulatorCounters = {
    connected: 0,
    hops: 0,
    failedHops: 0,
    discoveries: 0,
    errors: 0,
    lastError: null,
    poolEmpty: 0,
    claimsRefused: 0,
    claimsFailed: 0,
    configsApplied: 0,
    configsRefused: 0,
    configsIgnored: 0,
  };
  stopping = false;
  /** Told of every hop and find the server acknowledged (set it before start; a test checks none is lost). */
  onAcknowledged: ((event: AcknowledgedEvent) => void) | null = null;
  /** Told of every hop as a bot sends it, by bot and the server it hopped to (bench:scale times its way to the dashboards). */
  onHopSent: ((ghostId: string, toJobId: string) => void) | null = null;
  /** Told of every socket a bot opens, with the upgrade's response headers (bench:scale reads which instance behind nginx took it). */
  onSocketOpened: ((ghostId: string, headers: IncomingHttpHeaders) => void) | null = null;
  readonly bots: SimulatedBot[];
  private loops: Promise<void>[] = [];
  private timers: NodeJS.Timeout[] = [];
  private stocking: Promise<void> | null = null;
  /** Aborted on stop: ends the waits of bots whose ramp start has not come yet. */
  private readonly stopped = new AbortController();
  private lastPrinted = { at: Date.now(), hops: 0, discoveries: 0 };

  private readonly byId: Map<string, SimulatedBot>;

  constructor(
    readonly options: SimulatorOptions,
    readonly random: Random = Math.random,
    private readonly log: Log = (line) => console.log(line),
    /** Where each bot's botToken is kept between runs (main.ts: a file; by default this process's memory). */
    private readonly credentials: BotCredentials = processCredentials(options.url),
  ) {
    this.bots = ghostIds(options.bots, options.ghostPrefix).map((id) => new SimulatedBot(id, this));
    this.byId = new Map(this.bots.map((bot) => [bot.ghostId, bot]));
    // Every bot waiting for its turn on the ramp listens for the stop: not a leak, however many.
    setMaxListeners(this.bots.length + 10, this.stopped.signal);
  }

  /** Enrolls every bot, stocks the pool, connects the enrolled bots and starts their hop loops. */
  async start(): Promise<void> {
    await this.enrollAll();
    await this.stockPool(Math.max(this.bots.length * 2, 20));
    // --ramp-s: bot i starts i × (ramp / bots) after the first, so a large fleet arrives as a slope.
    const spacingMs = (this.options.rampSeconds * 1000) / this.bots.length;
    this.bots.forEach((bot, i) => {
      if (bot.token !== null) this.loops.push(this.startBot(bot, i * spacingMs));
    });
    // Servers that failed are deleted from the pool: a few fresh ones arrive every 15 s, as a real
    // fleet's server-list crawler would add them.
    this.timers.push(setInterval(() => void this.stockPool(Math.ceil(this.bots.length / 4)), 15_000));
    if (this.options.statusIntervalMs > 0) {
      this.timers.push(setInterval(() => this.log(this.statusLine()), this.options.statusIntervalMs));
    }
  }

  private async startBot(bot: SimulatedBot, delayMs: number): Promise<void> {
    if (delayMs > 0) await sleep(delayMs, undefined, { signal: this.stopped.signal }).catch(() => {});
    if (this.stopping) return;
    bot.connect();
    await bot.run();
  }

  /** Stops hopping, releases every claimed server and closes every socket with 1000. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopped.abort();
    for (const bot of this.bots) bot.wake();
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled(this.loops);
    await Promise.allSettled(this.bots.map((bot) => bot.shutdown()));
  }

  /** Each bot's own credential, a few bots at a time; a bot the server will not enroll does not run (the error says why). */
  private async enrollAll(): Promise<void> {
    const waiting = [...this.bots];
    const worker = async () => {
      for (let bot = waiting.shift(); bot; bot = waiting.shift()) {
        const enrolled = await enrollBot(
          this.options.url,
          this.options.token,
          this.credentials,
          bot.ghostId,
          () => this.stopping,
        );
        if (enrolled.ok) bot.token = enrolled.botToken;
        else this.error(`${bot.ghostId}: ${enrolled.error}, not starting`);
      }
    };
    await Promise.all(Array.from({ length: ENROLLING_AT_ONCE }, worker));
  }

  get connectedBots(): number {
    return this.bots.filter((bot) => bot.connected).length;
  }

  statusLine(): string {
    const now = Date.now();
    const seconds = Math.max((now - this.lastPrinted.at) / 1000, 0.001);
    const { hops, discoveries, errors, failedHops, poolEmpty, claimsRefused, claimsFailed, lastError } =
      this.counters;
    const { configsApplied, configsRefused, configsIgnored } = this.counters;
    const stopped = this.bots.filter((bot) => bot.paused).length;
    const configs = configsApplied + configsRefused + configsIgnored;
    const line =
      `[simulate] ${this.connectedBots}/${this.bots.length} bots connected` +
      `${stopped ? ` (${stopped} stopped)` : ''} · ` +
      `${((hops - this.lastPrinted.hops) / seconds).toFixed(1)} hops/s · ` +
      `${((discoveries - this.lastPrinted.discoveries) / seconds).toFixed(2)} discoveries/s · ` +
      `${hops} hops (${failedHops} failed), ${discoveries} finds · ` +
      `claims: pool empty ${poolEmpty}×, refused ${claimsRefused}, failed ${claimsFailed} · ` +
      (configs
        ? `configs ${configsApplied} applied, ${configsRefused} refused, ${configsIgnored} unanswered · `
        : '') +
      `errors ${errors}${lastError ? ` (last: ${lastError})` : ''}`;
    this.lastPrinted = { at: now, hops, discoveries };
    return line;
  }

  error(message: string): void {
    this.counters.errors += 1;
    this.counters.lastError = message.slice(0, 160);
  }

  /**
   * A bot's HTTP call with `token` (a bot's own botToken); by default any enrolled bot's, for the
   * calls that speak for no bot in particular (adding servers to the pool).
   */
  async api(path: string, body: unknown, token?: string | null): Promise<{ status: number; json: unknown }> {
    const bearer = token ?? this.bots.find((bot) => bot.token !== null)?.token ?? this.options.token;
    const response = await fetch(`${this.options.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, json };
  }

  private tokenOf(ghostId: string): string | null {
    return this.byId.get(ghostId)?.token ?? null;
  }

  /**
   * Adds `count` fresh game servers over the configured places, in calls of at most the server's
   * limit (MAX_POOL_SERVERS_PER_CALL), one after another. Concurrent calls share one.
   */
  stockPool(count: number): Promise<void> {
    this.stocking ??= (async () => {
      for (let left = count; left > 0 && !this.stopping; left -= MAX_POOL_SERVERS_PER_CALL) {
        const servers = Array.from({ length: Math.min(left, MAX_POOL_SERVERS_PER_CALL) }, () => ({
          placeId: pickFrom(this.options.placeIds, this.random),
          jobId: randomUUID(),
          playing: Math.floor(this.random() * 45),
          maxPlayers: 50,
        }));
        try {
          const { status, json } = await this.api('/api/server-pool/servers', { servers });
          if (status >= 300) return this.error(`adding servers: ${status} ${describe(json)}`);
        } catch (error) {
          return this.error(`adding servers: ${(error as Error).message}`);
        }
      }
    })().finally(() => {
      this.stocking = null;
    });
    return this.stocking;
  }

  /** One server from the pool for this bot, or null (the pool is empty or the call failed). */
  async claim(ghostId: string): Promise<ClaimedServer | null> {
    for (let tries = 0; tries < 2; tries++) {
      try {
        const { status, json } = await this.api('/api/server-pool/claim', { ghostId }, this.tokenOf(ghostId));
        const server = serverOf(json);
        if (status < 300 && server) return server;
        if (status >= 500) {
          this.counters.claimsFailed += 1;
          this.error(`claim: ${status} ${describe(json)}`);
          return null;
        }
        if (status !== 404) {
          this.counters.claimsRefused += 1;
          this.error(`claim: ${status} ${describe(json)}`);
          return null;
        }
      } catch (error) {
        this.counters.claimsFailed += 1;
        this.error(`claim: ${(error as Error).message}`);
        return null;
      }
      // Nothing available: stock the pool and try once more.
      this.counters.poolEmpty += 1;
      await this.stockPool(Math.max(this.bots.length, 10));
    }
    return null;
  }

  async release(ghostId: string, jobId: string, outcome: 'ok' | 'full' | 'error'): Promise<void> {
    try {
      const { status, json } = await this.api(
        '/api/server-pool/release',
        { ghostId, jobId, outcome },
        this.tokenOf(ghostId),
      );
      if (status >= 300 && status !== 404) this.error(`release: ${status} ${describe(json)}`);
    } catch (error) {
      this.error(`release: ${(error as Error).message}`);
    }
  }
}

/** The claimed server from a claim answer: `{server: {jobId, placeId}}` or the fields at the top. */
function serverOf(json: unknown): ClaimedServer | null {
  if (!json || typeof json !== 'object') return null;
  const record = json as Record<string, unknown>;
  const server = (record.server && typeof record.server === 'object' ? record.server : record) as Record<
    string,
    unknown
  >;
  if (typeof server.jobId !== 'string' || server.placeId === undefined || server.placeId === null)
    return null;
  return { jobId: server.jobId, placeId: String(server.placeId) };
}

function describe(json: unknown): string {
  if (json && typeof json === 'object' && 'error' in json) return String((json as { error: unknown }).error);
  return JSON.stringify(json)?.slice(0, 120) ?? '';
}
