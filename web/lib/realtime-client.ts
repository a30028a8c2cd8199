import { z } from 'zod';
import {
  CONNECTION_ERROR_TEXT,
  CONNECTION_TIMEOUT_TEXT,
  FrameSchema,
  LOCAL_SOCKET_PORT,
  reconnectionFailedText,
  ServerMessageSchemas,
  SOCKET_PATH,
  SOCKET_TIMING,
  type SystemHealthPayload,
} from '../../common/realtime.ts';

/**
 * The admin socket's connection logic, without React: connect, heartbeat, quality checks, backoff
 * reconnects and throttled delivery of incoming messages to listeners. `realtime.tsx` wraps it in a
 * provider; tests drive it with a real `ws` server and fake timers.
 */

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';
export type ConnectionQuality = 'critical' | 'poor' | 'good' | 'excellent';

export interface RealtimeState {
  status: ConnectionStatus;
  quality: ConnectionQuality;
  /** Reconnect attempts since the last successful connection (0 while connected). */
  reconnectAttempts: number;
  /** Epoch ms of the last heartbeat answer, or null. */
  lastHeartbeat: number | null;
  /** The latest system_health payload (connectedClients, status, healthScore...). */
  systemHealth: SystemHealthPayload | null;
  /**
   * The server's clock minus this one's, in ms, from the latest system_health frame's timestamp (0
   * until one arrives): how long the fleet has been silent is the server's measure, not this clock's.
   */
  serverTimeOffset: number;
  /** Last connection error text, e.g. 'reconnection failed after 10 attempts'. */
  error: string | null;
}

/** An incoming frame as listeners get it. */
export interface RealtimeMessage<P = unknown> {
  type: string;
  payload: P;
  id?: string;
  timestamp?: string | number;
}
export type MessageListener = (message: RealtimeMessage) => void;

/** Subscribe with this type to get every message. */
export const ANY_MESSAGE = '*';

/** The part of a WebSocket the client uses: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type SocketTiming = { -readonly [K in keyof typeof SOCKET_TIMING]: number };

export interface RealtimeClientOptions {
  /** Defaults to `socketUrl(window.location)`. */
  url?: string;
  /** Defaults to the global WebSocket. */
  WebSocket?: WebSocketConstructor;
  /** Overrides of the spec's timing constants (tests). */
  timing?: Partial<SocketTiming>;
}

const OPEN = 1;
/** Browsers only let a page close with 1000 or 3000–4999. */
const CLOSE_NORMAL = 1000;
const CLOSE_STALE = 4000;

/** Delay before reconnect attempt number `attempt` (0-based): 2 s growing 1.5x, capped at 30 s. */
export function reconnectDelay(attempt: number, timing: SocketTiming = SOCKET_TIMING): number {
  return Math.round(
    Math.min(timing.reconnectBaseMs * timing.reconnectFactor ** attempt, timing.reconnectMaxMs),
  );
}

function isLocalHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

/** Same host, path /ws, ws: or wss: after the page; port 5000 when the host is local and carries no port. */
export function socketUrl(location: Pick<Location, 'protocol' | 'hostname' | 'port' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const host =
    isLocalHost(location.hostname) && !location.port
      ? `${location.hostname}:${LOCAL_SOCKET_PORT}`
      : location.host;
  return `${scheme}//${host}${SOCKET_PATH}`;
}

export interface QualityInput {
  status: ConnectionStatus;
  /** Epoch ms of the last heartbeat answer (or of the connection opening, if later). */
  lastSignOfLife: number | null;
  now: number;
  heartbeatIntervalMs: number;
  /** Whether a reconnection has happened since the client started. */
  hasReconnected: boolean;
}

/**
 * Spec: critical when disconnected or the last heartbeat is older than 2x the interval; poor above
 * 1.5x; good if any reconnect happened; otherwise excellent.
 */
export function connectionQuality(input: QualityInput): ConnectionQuality {
  if (input.status !== 'connected' || input.lastSignOfLife === null) return 'critical';
  const age = input.now - input.lastSignOfLife;
  if (age > 2 * input.heartbeatIntervalMs) return 'critical';
  if (age > 1.5 * input.heartbeatIntervalMs) return 'poor';
  return input.hasReconnected ? 'good' : 'excellent';
}

/** A frame id; crypto.randomUUID needs a secure context, which a LAN over plain HTTP is not. */
function frameId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Says why a frame was dropped: the console is where a developer looks when an update never shows. */
function dropFrame(kind: string, problem: string): null {
  console.warn(`realtime: dropped a ${kind} frame: ${problem}`);
  return null;
}

/**
 * An incoming frame checked against the schema of its kind (common/realtime.ts ServerMessageSchemas),
 * so listeners only ever see payloads of the shape their type promises; null for a frame that is not
 * JSON, names an unknown kind or carries a payload its kind does not allow.
 */
export function parseMessage(data: unknown): RealtimeMessage | null {
  if (typeof data !== 'string') return dropFrame('binary', 'frames are JSON text');
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return dropFrame('malformed', 'not JSON');
  }
  const frame = FrameSchema.safeParse(value);
  if (!frame.success) return dropFrame('malformed', z.prettifyError(frame.error));
  const { type } = frame.data;
  const schema = Object.hasOwn(ServerMessageSchemas, type)
    ? ServerMessageSchemas[type as keyof typeof ServerMessageSchemas]
    : undefined;
  if (!schema) return dropFrame(type, 'unknown message type');
  const payload = schema.safeParse(frame.data.payload);
  if (!payload.success) return dropFrame(type, z.prettifyError(payload.error));
  return { ...frame.data, type, payload: payload.data };
}

const noop = () => {};

function detach(socket: WebSocketLike): void {
  // No-ops rather than null: the `ws` package throws on an 'error' event nobody listens to.
  socket.onopen = noop;
  socket.onmessage = noop;
  socket.onerror = noop;
  socket.onclose = noop;
}

/** A client that has not connected yet (also what screens without a provider see). */
export const INITIAL_STATE: RealtimeState = {
  status: 'disconnected',
  quality: 'critical',
  reconnectAttempts: 0,
  lastHeartbeat: null,
  systemHealth: null,
  serverTimeOffset: 0,
  error: null,
};

export class RealtimeClient {
  private readonly timing: SocketTiming;
  private readonly options: RealtimeClientOptions;
  private state: RealtimeState = INITIAL_STATE;
  private readonly stateListeners = new Set<() => void>();
  private readonly messageListeners = new Map<string, Set<MessageListener>>();

  private started = false;
  private socket: WebSocketLike | null = null;
  private connectedAt: number | null = null;
  private hasConnected = false;
  private hasReconnected = false;

  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private qualityTimer: ReturnType<typeof setInterval> | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private queue: RealtimeMessage[] = [];
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private resumeCursor: (() => number | null) | null = null;

  constructor(options: RealtimeClientOptions = {}) {
    this.options = options;
    this.timing = { ...SOCKET_TIMING, ...options.timing };
  }

  /** The current state; a new object whenever something changed (for useSyncExternalStore). */
  getState = (): RealtimeState => this.state;

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Calls `listener` for each message of `type` (or every message with ANY_MESSAGE), in arrival order. */
  subscribe = (type: string, listener: MessageListener): (() => void) => {
    let set = this.messageListeners.get(type);
    if (!set) {
      set = new Set();
      this.messageListeners.set(type, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.messageListeners.delete(type);
    };
  };

  /** Connects and keeps connecting until stop(). */
  start = (): void => {
    if (this.started) return;
    this.started = true;
    this.hasConnected = false;
    this.hasReconnected = false;
    this.qualityTimer = setInterval(() => this.checkQuality(), this.timing.qualityCheckIntervalMs);
    this.setState({ reconnectAttempts: 0, error: null });
    this.open();
  };

  /** Closes normally (code 1000) and stops every timer; messages not yet delivered are dropped. */
  stop = (): void => {
    this.started = false;
    this.clearTimers();
    if (this.qualityTimer !== null) clearInterval(this.qualityTimer);
    this.qualityTimer = null;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.queue = [];
    this.dropSocket(CLOSE_NORMAL, 'Client closed');
    this.setState({ status: 'disconnected' });
  };

  /** Connects again now, resetting the attempt count (the reconnect button). */
  reconnect = (): void => {
    if (!this.started) {
      this.start();
      return;
    }
    this.clearTimers();
    this.dropSocket(CLOSE_NORMAL, 'Reconnecting');
    this.setState({ reconnectAttempts: 0, error: null });
    this.open();
  };

  /** Sends a frame `{type, payload, id, timestamp}`; false when not connected. */
  send = (type: string, payload: unknown = {}): boolean => {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify({ type, payload, id: frameId(), timestamp: new Date().toISOString() }));
    return true;
  };

  requestSystemHealth = (): void => {
    this.send('system_health', {});
  };

  /**
   * While set, a reconnection asks the server to resume after the seq `cursor()` returns
   * (`/ws?since=SEQ`), so a screen showing the fleet's stream gets exactly what it missed rather than
   * a fresh backfill. Null (the default, or a null cursor) connects without one.
   */
  setResumeCursor = (cursor: (() => number | null) | null): void => {
    this.resumeCursor = cursor;
  };

  /** The URL of the next connection: the resume cursor only once a connection has been made. */
  private connectionUrl(): string {
    const base = this.options.url ?? socketUrl(window.location);
    const since = this.hasConnected ? this.resumeCursor?.() : null;
    if (since === null || since === undefined) return base;
    const url = new URL(base);
    url.searchParams.set('since', String(since));
    return url.href;
  }

  private open(): void {
    this.clearTimers();
    let socket: WebSocketLike;
    try {
      const Impl = this.options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
      socket = new Impl(this.connectionUrl());
    } catch {
      this.setState({ error: CONNECTION_ERROR_TEXT });
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.setState({ status: 'connecting' });
    socket.onopen = () => this.onOpen(socket);
    socket.onmessage = (event) => this.onMessage(socket, event.data);
    socket.onerror = () => {
      if (socket === this.socket) this.setState({ error: CONNECTION_ERROR_TEXT });
    };
    socket.onclose = (event) => this.onClose(socket, event.code);
    this.connectTimer = setTimeout(() => this.onConnectTimeout(socket), this.timing.connectionTimeoutMs);
  }

  private onOpen(socket: WebSocketLike): void {
    if (socket !== this.socket) return;
    this.clearConnectTimer();
    this.hasReconnected ||= this.hasConnected;
    this.hasConnected = true;
    this.connectedAt = Date.now();
    this.setState({ status: 'connected', error: null, reconnectAttempts: 0 });
    this.sendHeartbeat();
    this.heartbeatTimer = setInterval(() => this.sendHeartbeat(), this.timing.heartbeatIntervalMs);
  }

  private onConnectTimeout(socket: WebSocketLike): void {
    if (socket !== this.socket || socket.readyState === OPEN) return;
    this.dropSocket(CLOSE_NORMAL, 'Connection timeout');
    this.setState({ error: CONNECTION_TIMEOUT_TEXT });
    this.scheduleReconnect();
  }

  private onClose(socket: WebSocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.clearTimers();
    // A normal close (the server's or ours) is final; anything else is a lost connection.
    if (code === CLOSE_NORMAL) this.setState({ status: 'disconnected' });
    else this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.started) return;
    const attempts = this.state.reconnectAttempts;
    if (attempts >= this.timing.maxReconnectAttempts) {
      // Spec section 8: 'reconnection failed after N attempts'.
      this.setState({ status: 'error', error: reconnectionFailedText(this.timing.maxReconnectAttempts) });
      return;
    }
    this.setState({ status: 'disconnected', reconnectAttempts: attempts + 1 });
    this.reconnectTimer = setTimeout(() => this.open(), reconnectDelay(attempts, this.timing));
  }

  private checkQuality(): void {
    this.setState({});
    // A connection that looks open but has stopped answering is replaced rather than trusted.
    if (this.state.status === 'connected' && this.state.quality === 'critical') {
      this.clearTimers();
      this.dropSocket(CLOSE_STALE, 'Heartbeat timeout');
      this.open();
    }
  }

  private sendHeartbeat(): void {
    this.send('heartbeat', {});
  }

  private onMessage(socket: WebSocketLike, data: unknown): void {
    if (socket !== this.socket) return;
    const message = parseMessage(data);
    if (!message) return;
    this.queue.push(message);
    if (this.flushTimer !== null) return;
    const wait = Math.max(0, this.lastFlushAt + this.timing.messageThrottleMs - Date.now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  /** Handles everything queued since the last flush, in order: one state update, then the listeners. */
  private flush(): void {
    this.flushTimer = null;
    this.lastFlushAt = Date.now();
    const batch = this.queue;
    this.queue = [];
    let lastHeartbeat = this.state.lastHeartbeat;
    let systemHealth = this.state.systemHealth;
    let serverTimeOffset = this.state.serverTimeOffset;
    for (const message of batch) {
      if (message.type === 'heartbeat') lastHeartbeat = Date.now();
      // Checked against its schema on arrival: a whole payload.
      else if (message.type === 'system_health') {
        systemHealth = message.payload as SystemHealthPayload;
        const sentAt = message.timestamp === undefined ? Number.NaN : new Date(message.timestamp).getTime();
        if (Number.isFinite(sentAt)) serverTimeOffset = sentAt - Date.now();
      }
    }
    this.setState({ lastHeartbeat, systemHealth, serverTimeOffset });
    for (const message of batch) {
      for (const type of [message.type, ANY_MESSAGE]) {
        const listeners = this.messageListeners.get(type);
        if (!listeners) continue;
        for (const listener of [...listeners]) {
          try {
            listener(message);
          } catch (err) {
            // One screen's bug must not stop the others' updates.
            console.error(`realtime listener for ${message.type} failed`, err);
          }
        }
      }
    }
  }

  private setState(patch: Partial<RealtimeState>): void {
    const merged = { ...this.state, ...patch };
    const connectedAt = merged.status === 'connected' ? this.connectedAt : null;
    const lastSignOfLife =
      connectedAt === null ? null : Math.max(connectedAt, merged.lastHeartbeat ?? Number.NEGATIVE_INFINITY);
    merged.quality = connectionQuality({
      status: merged.status,
      lastSignOfLife,
      now: Date.now(),
      heartbeatIntervalMs: this.timing.heartbeatIntervalMs,
      hasReconnected: this.hasReconnected,
    });
    const keys = Object.keys(merged) as Array<keyof RealtimeState>;
    if (keys.every((k) => merged[k] === this.state[k])) return;
    this.state = merged;
    for (const listener of [...this.stateListeners]) listener();
  }

  /** Detaches and closes the current socket, if any. */
  private dropSocket(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    detach(socket);
    try {
      socket.close(code, reason);
    } catch {
      // Closing a socket that never opened can throw in some implementations; it is gone either way.
    }
  }

  private clearConnectTimer(): void {
    if (this.connectTimer !== null) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  /** The per-connection timers (not the quality check, which runs while started). */
  private clearTimers(): void {
    this.clearConnectTimer();
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }
}
