import { type OutboundResponse, sendOutbound } from '../notifications/outbound-request.ts';
import { DiscordRateLimits, routeOf } from './discord-rest-limits.ts';
import type {
  DiscordApplication,
  DiscordCommand,
  DiscordGuild,
  DiscordMember,
  DiscordRole,
  DiscordSettings,
} from './discord-rest-types.ts';

/*
 * The bot's calls to Discord's REST API (`Authorization: Bot <token>` on the configured apiUrl):
 * each waits its bucket's turn (discord-rest-limits.ts), takes at most 5 s, waits out a 429 and asks
 * again, and stops asking while the invalid-request budget is spent or after Discord refused the
 * token. DISCORD_API_URL is the operator's, so it is called as set (no outbound-address rules).
 */

export const DISCORD_TIMEOUT_MS = 5_000;
/** A 429 is waited out and the request made again this many times, then the caller hears of it. */
const MAX_RATE_LIMITED = 3;
/** A wait longer than this (a global limit of minutes) is not waited in line: the caller retries later. */
export const MAX_WAIT_MS = 30_000;

/** Discord answered with an error (after the 429s it was allowed to wait out). */
export class DiscordRestError extends Error {
  override name = 'DiscordRestError';
  constructor(
    readonly status: number,
    /** Discord's JSON error code (10007 Unknown Member, 50013 Missing Permissions…), 0 if none. */
    readonly code: number,
    message: string,
    /** For a 429 or a spent budget: when asking again may succeed. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
  }
}

/** Not sent: a setting is missing, the token was refused, or the limits say wait too long. */
export class DiscordNotSentError extends DiscordRestError {
  override name = 'DiscordNotSentError';
}

export interface DiscordRestOptions {
  /** Read before every call, so a saved setting applies at once. */
  settings: () => DiscordSettings | Promise<DiscordSettings>;
  /** Real time: rate-limit waits are real (tests move the app's clock, not Discord's). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
  maxWaitMs?: number;
}

export interface DiscordRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** From the API base, e.g. `/guilds/1/roles`. */
  path: string;
  body?: unknown;
  /** X-Audit-Log-Reason: shown in the guild's audit log. */
  reason?: string;
  /** Follow-up webhooks are authorised by their token, not the bot's. */
  noAuth?: boolean;
}

export interface DiscordRest {
  /** One call; the parsed JSON answer (null for a 204). Throws DiscordRestError. */
  request<T>(req: DiscordRequest): Promise<T>;
  getApplication(): Promise<DiscordApplication>;
  getGuild(guildId: string): Promise<DiscordGuild>;
  getMember(guildId: string, userId: string): Promise<DiscordMember>;
  getRoles(guildId: string): Promise<DiscordRole[]>;
  overwriteGuildCommands(
    applicationId: string,
    guildId: string,
    commands: DiscordCommand[],
  ): Promise<unknown[]>;
  addMemberRole(guildId: string, userId: string, roleId: string, reason?: string): Promise<void>;
  removeMemberRole(guildId: string, userId: string, roleId: string, reason?: string): Promise<void>;
  /** Follow-up message to an interaction (after a deferred answer). */
  followUp(applicationId: string, interactionToken: string, message: unknown): Promise<unknown>;
  /** 401/403/429 answers counted in the last ten minutes (Discord bans at 10,000). */
  invalidRequests(): number;
}

function errorOf(res: OutboundResponse): { code: number; message: string } {
  try {
    const parsed = JSON.parse(res.body) as { code?: unknown; message?: unknown };
    return {
      code: typeof parsed.code === 'number' ? parsed.code : 0,
      message: typeof parsed.message === 'string' ? parsed.message : `HTTP ${res.status}`,
    };
  } catch {
    return { code: 0, message: `HTTP ${res.status}` };
  }
}

export function createDiscordRest(options: DiscordRestOptions): DiscordRest {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const limits = new DiscordRateLimits(now);
  /** The token Discord last answered 401 to: not offered again (each 401 counts toward the ban). */
  let refusedToken: string | null = null;

  /** Waits for the route's turn; throws when the wait would be longer than maxWaitMs. */
  const takeTurn = async (route: string): Promise<string> => {
    for (;;) {
      const wait = Math.max(limits.waitMs(route), limits.invalidBudgetWaitMs());
      if (wait > maxWaitMs) {
        throw new DiscordNotSentError(429, 0, `Discord asks to wait ${Math.ceil(wait / 1000)} s`, wait);
      }
      if (wait > 0) await sleep(wait);
      else if (limits.mayStart(route)) return limits.start(route);
      else await limits.finished(route);
    }
  };

  const send = async (settings: DiscordSettings, req: DiscordRequest): Promise<OutboundResponse> => {
    const route = routeOf(req.method, req.path);
    const headers: Record<string, string> = {
      'user-agent': 'DiscordBot (https://github.com/scanline, 1.0)',
    };
    if (!req.noAuth) headers.authorization = `Bot ${settings.botToken}`;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (req.reason) headers['x-audit-log-reason'] = encodeURIComponent(req.reason);
    for (let limited = 0; ; limited += 1) {
      const key = await takeTurn(route);
      let res: OutboundResponse | null = null;
      try {
        res = await sendOutbound(
          `${settings.apiUrl.replace(/\/+$/, '')}${req.path}`,
          {
            method: req.method,
            headers,
            body: req.body === undefined ? undefined : JSON.stringify(req.body),
            timeoutMs: options.timeoutMs ?? DISCORD_TIMEOUT_MS,
          },
          null,
        );
      } finally {
        limits.observe(route, key, res);
      }
      if (res.status !== 429 || limited + 1 >= MAX_RATE_LIMITED) return res;
    }
  };

  const request = async <T>(req: DiscordRequest): Promise<T> => {
    const settings = await options.settings();
    if (!req.noAuth && !settings.botToken) throw new DiscordNotSentError(0, 0, 'No bot token is set');
    if (!req.noAuth && settings.botToken === refusedToken) {
      throw new DiscordNotSentError(401, 0, '401: Unauthorized (the token was refused before)');
    }
    const res = await send(settings, req);
    if (res.status === 401 && !req.noAuth) refusedToken = settings.botToken;
    if (res.status >= 200 && res.status < 300) {
      return (res.status === 204 || res.body === '' ? null : JSON.parse(res.body)) as T;
    }
    const { code, message } = errorOf(res);
    const retryAfterMs = res.status === 429 ? limits.waitMs(routeOf(req.method, req.path)) : 0;
    throw new DiscordRestError(res.status, code, message, retryAfterMs);
  };

  const id = encodeURIComponent;
  return {
    request,
    getApplication: () => request({ method: 'GET', path: '/applications/@me' }),
    getGuild: (g) => request({ method: 'GET', path: `/guilds/${id(g)}` }),
    getMember: (g, u) => request({ method: 'GET', path: `/guilds/${id(g)}/members/${id(u)}` }),
    getRoles: (g) => request({ method: 'GET', path: `/guilds/${id(g)}/roles` }),
    overwriteGuildCommands: (app, g, commands) =>
      request({ method: 'PUT', path: `/applications/${id(app)}/guilds/${id(g)}/commands`, body: commands }),
    addMemberRole: (g, u, r, reason) =>
      request({ method: 'PUT', path: `/guilds/${id(g)}/members/${id(u)}/roles/${id(r)}`, reason }),
    removeMemberRole: (g, u, r, reason) =>
      request({ method: 'DELETE', path: `/guilds/${id(g)}/members/${id(u)}/roles/${id(r)}`, reason }),
    followUp: (app, token, message) =>
      request({ method: 'POST', path: `/webhooks/${id(app)}/${id(token)}`, body: message, noAuth: true }),
    invalidRequests: () => limits.invalidCount(),
  };
}
