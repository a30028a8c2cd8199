import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The bot side of the fake Discord (fake-discord.ts serves it under /api/v10): the application and
 * guilds the "check" reads, command overwrite, member role add/remove and interaction follow-ups,
 * each recorded, answering as Discord documents: 200/204, 401 `401: Unauthorized` for a wrong token,
 * 403 Missing Access (50001: not in the guild) or Missing Permissions (50013: no Manage Roles, or the
 * role is not below the bot's highest), 404 Unknown Guild/Member/Role (10004/10007/10011), and 429
 * with `retry_after`, Retry-After and the X-RateLimit-* headers (PUT and DELETE of a member's role
 * share one bucket per guild, like every route here shares one per route and guild).
 */

export const MANAGE_ROLES = 1n << 28n;
export const ADMINISTRATOR = 1n << 3n;

export interface FakeRestCall {
  method: string;
  /** From the API base: /guilds/1/members/2/roles/3 */
  path: string;
  body: unknown;
  status: number;
  at: number;
  /** The X-Audit-Log-Reason sent, decoded. */
  reason: string | null;
}

export interface FakeRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  managed: boolean;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  roles: FakeRole[];
  /** Member user id → role ids. */
  members: Map<string, string[]>;
  /** The role the bot holds (the one its invite made). */
  botRoleId: string;
  /** A "Premium" role below the bot's, to give buyers. */
  premiumRoleId: string;
}

export interface FakeDiscordRest {
  application: { id: string; name: string; botUserId: string; token: string };
  guilds: Map<string, FakeGuild>;
  /** Every REST call answered, in arrival order. */
  calls: FakeRestCall[];
  /** Guild id → the commands last written by a bulk overwrite. */
  commands: Map<string, unknown[]>;
  /** Follow-up messages posted to interactions' webhooks. */
  followUps: { applicationId: string; token: string; body: unknown }[];
  /** REST calls answered 429. */
  rateLimited: number;
  /** A guild with the bot in it (its role may manage roles) and a Premium role below the bot's. */
  createGuild(options?: { botJoined?: boolean; botPermissions?: bigint }): FakeGuild;
  /** A user joins the guild (no roles). */
  addMember(guildId: string, userId: string): void;
  /** The next `count` calls answer 429 asking for `retryAfter` seconds (`global`: the global limit). */
  rateLimitNext(count: number, retryAfter: number, options?: { global?: boolean }): void;
  /** Role add/remove calls (PUT/DELETE …/roles/…) that Discord answered 204. */
  roleChanges(): { method: 'PUT' | 'DELETE'; guildId: string; userId: string; roleId: string }[];
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export function createFakeDiscordRest(options: { limit: number; windowMs: number }) {
  let nextId = BigInt('1190000000000000000');
  const snowflake = () => {
    nextId += 1n;
    return String(nextId);
  };
  const buckets = new Map<string, { windowStart: number; used: number }>();
  let forced: { count: number; retryAfter: number; global: boolean } | null = null;
  const appId = snowflake();

  const state: FakeDiscordRest = {
    application: {
      id: appId,
      name: 'Scanline Desk',
      botUserId: appId,
      token: randomBytes(30).toString('base64url'),
    },
    guilds: new Map(),
    calls: [],
    commands: new Map(),
    followUps: [],
    rateLimited: 0,
    createGuild({ botJoined = true, botPermissions = MANAGE_ROLES } = {}) {
      const id = snowflake();
      const guild: FakeGuild = {
        id,
        name: `Guild ${id.slice(-4)}`,
        ownerId: snowflake(),
        roles: [{ id, name: '@everyone', position: 0, permissions: '0', managed: false }],
        members: new Map(),
        botRoleId: snowflake(),
        premiumRoleId: snowflake(),
      };
      guild.roles.push({
        id: guild.premiumRoleId,
        name: 'Premium',
        position: 1,
        permissions: '0',
        managed: false,
      });
      guild.roles.push({
        id: guild.botRoleId,
        name: 'Scanline Desk',
        position: 2,
        permissions: String(botPermissions),
        managed: true,
      });
      if (botJoined) guild.members.set(state.application.botUserId, [guild.botRoleId]);
      state.guilds.set(id, guild);
      return guild;
    },
    addMember(guildId, userId) {
      state.guilds.get(guildId)?.members.set(userId, []);
    },
    rateLimitNext(count, retryAfter, { global = false } = {}) {
      forced = { count, retryAfter, global };
    },
    roleChanges() {
      return state.calls.flatMap((c) => {
        const m = /^\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/.exec(c.path);
        if (!m || c.status !== 204 || (c.method !== 'PUT' && c.method !== 'DELETE')) return [];
        return [{ method: c.method, guildId: m[1]!, userId: m[2]!, roleId: m[3]! }];
      });
    },
  };

  const err = (status: number, message: string, code: number): Answer => ({
    status,
    body: { message, code },
  });
  const unauthorized = err(401, '401: Unauthorized', 0);
  const missingAccess = err(403, 'Missing Access', 50001);
  const missingPermissions = err(403, 'Missing Permissions', 50013);

  /** The bot's highest role position and whether it may manage roles. */
  const botStanding = (guild: FakeGuild) => {
    const mine = guild.members.get(state.application.botUserId) ?? [];
    const roles = guild.roles.filter((r) => r.id === guild.id || mine.includes(r.id));
    const perms = roles.reduce((acc, r) => acc | BigInt(r.permissions), 0n);
    return {
      highest: Math.max(0, ...roles.map((r) => r.position)),
      manageRoles: (perms & (MANAGE_ROLES | ADMINISTRATOR)) !== 0n,
    };
  };

  const route = (method: string, path: string, body: unknown, authorized: boolean): Answer => {
    const follow = /^\/webhooks\/(\d+)\/([A-Za-z0-9_.-]+)$/.exec(path);
    if (follow && method === 'POST') {
      if (follow[1] !== state.application.id) return err(404, 'Unknown Webhook', 10015);
      state.followUps.push({ applicationId: follow[1]!, token: follow[2]!, body });
      const content = (body as { content?: string } | null)?.content ?? '';
      return { status: 200, body: { id: snowflake(), type: 0, content, flags: (body as any)?.flags ?? 0 } };
    }
    if (!authorized) return unauthorized;
    if (method === 'GET' && path === '/applications/@me') {
      const { id, name, botUserId } = state.application;
      return { status: 200, body: { id, name, bot: { id: botUserId, username: name }, flags: 0 } };
    }
    const cmd = /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/.exec(path);
    if (cmd && method === 'PUT') {
      const guild = state.guilds.get(cmd[2]!);
      if (cmd[1] !== state.application.id) return err(403, 'Missing Access', 50001);
      if (!guild) return err(404, 'Unknown Guild', 10004);
      if (!guild.members.has(state.application.botUserId)) return missingAccess;
      const written = (body as Record<string, unknown>[]).map((c) => ({
        ...c,
        id: snowflake(),
        application_id: cmd[1],
        guild_id: cmd[2],
        version: snowflake(),
      }));
      state.commands.set(cmd[2]!, written);
      return { status: 200, body: written };
    }
    const g = /^\/guilds\/(\d+)(\/.*)?$/.exec(path);
    if (!g) return err(404, '404: Not Found', 0);
    const guild = state.guilds.get(g[1]!);
    if (!guild) return err(404, 'Unknown Guild', 10004);
    if (!guild.members.has(state.application.botUserId)) return missingAccess;
    const rest = g[2] ?? '';
    if (method === 'GET' && rest === '') {
      return { status: 200, body: { id: guild.id, name: guild.name, owner_id: guild.ownerId } };
    }
    if (method === 'GET' && rest === '/roles') return { status: 200, body: guild.roles };
    const member = /^\/members\/(\d+)$/.exec(rest);
    if (member && method === 'GET') {
      const roles = guild.members.get(member[1]!);
      if (!roles) return err(404, 'Unknown Member', 10007);
      return {
        status: 200,
        body: { user: { id: member[1], username: `user${member[1]!.slice(-4)}` }, roles },
      };
    }
    const roleChange = /^\/members\/(\d+)\/roles\/(\d+)$/.exec(rest);
    if (roleChange && (method === 'PUT' || method === 'DELETE')) {
      const standing = botStanding(guild);
      if (!standing.manageRoles) return missingPermissions;
      const role = guild.roles.find((r) => r.id === roleChange[2]);
      if (!role) return err(404, 'Unknown Role', 10011);
      if (role.position >= standing.highest || role.managed) return missingPermissions;
      const roles = guild.members.get(roleChange[1]!);
      if (!roles) return err(404, 'Unknown Member', 10007);
      const others = roles.filter((r) => r !== role.id);
      guild.members.set(roleChange[1]!, method === 'PUT' ? [...others, role.id] : others);
      return { status: 204 };
    }
    return err(405, '405: Method Not Allowed', 0);
  };

  /** The bucket of a call: role add and remove share one per guild; others one per route and guild. */
  const bucketOf = (method: string, path: string) => {
    if (/\/members\/\d+\/roles\/\d+$/.test(path)) return `member-roles:${path.split('/')[2]}`;
    return `${method}:${path.replace(/\/members\/\d+/, '/members/:id')}`;
  };

  const limitHeaders = (bucket: string, b: { windowStart: number; used: number }, now: number) => {
    const resetAfter = Math.max(0, b.windowStart + options.windowMs - now) / 1000;
    return {
      'x-ratelimit-limit': String(options.limit),
      'x-ratelimit-remaining': String(Math.max(0, options.limit - b.used)),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-reset': ((b.windowStart + options.windowMs) / 1000).toFixed(3),
      'x-ratelimit-bucket': Buffer.from(bucket.split(':')[0]!).toString('hex'),
    };
  };

  /** Answers a call under /api/v10 (the path given without it). */
  const handle = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    const method = req.method ?? 'GET';
    const now = Date.now();
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const reasonHeader = req.headers['x-audit-log-reason'];
    const record = (status: number) =>
      state.calls.push({
        method,
        path,
        body,
        status,
        at: now,
        reason: typeof reasonHeader === 'string' ? decodeURIComponent(reasonHeader) : null,
      });
    const send = (a: Answer, headers: Record<string, string>) => {
      record(a.status);
      if (a.status === 204) res.writeHead(204, { ...headers, ...a.headers }).end();
      else
        res
          .writeHead(a.status, { 'content-type': 'application/json', ...headers, ...a.headers })
          .end(JSON.stringify(a.body ?? null));
    };
    const bucket = bucketOf(method, path);
    const b = buckets.get(bucket) ?? { windowStart: now, used: 0 };
    buckets.set(bucket, b);
    if (now - b.windowStart >= options.windowMs) {
      b.windowStart = now;
      b.used = 0;
    }
    const tooMany = (retryAfter: number, global: boolean) => {
      state.rateLimited += 1;
      send(
        { status: 429, body: { message: 'You are being rate limited.', retry_after: retryAfter, global } },
        {
          ...(global ? { 'x-ratelimit-global': 'true' } : limitHeaders(bucket, b, now)),
          'retry-after': String(Math.ceil(retryAfter)),
          'x-ratelimit-scope': global ? 'global' : 'user',
        },
      );
    };
    if (forced && forced.count > 0) {
      forced.count -= 1;
      tooMany(forced.retryAfter, forced.global);
      return;
    }
    if (b.used >= options.limit) {
      tooMany(Math.max(0, b.windowStart + options.windowMs - now) / 1000, false);
      return;
    }
    b.used += 1;
    const authorized = req.headers.authorization === `Bot ${state.application.token}`;
    send(route(method, path, body, authorized), limitHeaders(bucket, b, now));
  };

  return { state, handle };
}
