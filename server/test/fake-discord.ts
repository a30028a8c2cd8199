import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createFakeDiscordRest, type FakeDiscordRest } from './fake-discord-rest.ts';

/**
 * A Discord stand-in on loopback for the notification tests and the benchmark: webhooks at
 * /api/webhooks/{id}/{token} answering like Discord's execute-webhook (204, or with `?wait=true` a
 * 200 with the created message and its `id`), GET on the webhook answering the webhook object, 5
 * requests per 2 s per webhook (then a 429 with `retry_after`, `Retry-After` and the X-RateLimit-*
 * headers), 404 Unknown Webhook once deleted, and a switch to take it down (503, or connections
 * reset). A webhook can be made to answer late (the post is taken at once, the answer comes after
 * `answerDelayMs`), to refuse with 401/403, or to answer every post with a 429. It records every post
 * it accepted.
 *
 * Under /api/v10 it is also Discord's REST API for a bot (fake-discord-rest.ts): `rest` holds the
 * application, its guilds and every call; point DISCORD_API_URL at `apiUrl`.
 */
export interface FakeWebhook {
  id: string;
  token: string;
  /** http://127.0.0.1:port/api/webhooks/{id}/{token} */
  url: string;
}

export interface ReceivedPost {
  webhookId: string;
  /** The JSON body as posted. */
  body: any;
  /** When it arrived (Date.now()). */
  at: number;
  /** The created message's id (what `?wait=true` answers). */
  messageId: string;
  /** Whether the post asked `?wait=true`. */
  wait: boolean;
  /** The request's headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

/** How one webhook misbehaves (all off by default). */
export interface WebhookBehaviour {
  /** The post is taken (recorded) on arrival; the answer is sent this much later. */
  answerDelayMs?: number;
  /** Every post and GET is refused with this status, as Discord does for a bad token or access. */
  refuse?: 401 | 403;
  /** Every post answers a 429 asking to wait this many seconds (a shared limit hit elsewhere). */
  alwaysRateLimited?: number;
}

export interface FakeDiscord {
  /** http://127.0.0.1:port */
  origin: string;
  /** http://127.0.0.1:port/api/v10: the REST base (DISCORD_API_URL). */
  apiUrl: string;
  /** The bot side: application, guilds, recorded calls, switches (fake-discord-rest.ts). */
  rest: FakeDiscordRest;
  createWebhook(): FakeWebhook;
  /** Later posts to it answer 404 {message: 'Unknown Webhook', code: 10015}. */
  deleteWebhook(id: string): void;
  /** Makes a webhook answer late, refuse, or rate-limit every post (merged with what it had). */
  setBehaviour(id: string, behaviour: WebhookBehaviour): void;
  /** '503': answers 503; 'reset': drops each connection unanswered. */
  takeDown(mode?: '503' | 'reset'): void;
  bringUp(): void;
  /** Accepted posts (2xx), in arrival order. */
  received: ReceivedPost[];
  /** How many requests got a 429 (should stay 0 when the limits are obeyed). */
  rateLimited: number;
  /** Requests made, answered or not. */
  requests: number;
  close(): Promise<void>;
}

export const FAKE_LIMIT = 5;
export const FAKE_WINDOW_MS = 2_000;

export async function startFakeDiscord(
  options: {
    limit?: number;
    windowMs?: number;
    port?: number;
    restLimit?: number;
    restWindowMs?: number;
  } = {},
): Promise<FakeDiscord> {
  const limit = options.limit ?? FAKE_LIMIT;
  const windowMs = options.windowMs ?? FAKE_WINDOW_MS;
  const rest = createFakeDiscordRest({
    limit: options.restLimit ?? FAKE_LIMIT,
    windowMs: options.restWindowMs ?? FAKE_WINDOW_MS,
  });
  const webhooks = new Map<
    string,
    { token: string; deleted: boolean; windowStart: number; used: number; behaviour: WebhookBehaviour }
  >();
  const sockets = new Set<Socket>();
  let down: '503' | 'reset' | null = null;
  let nextId = BigInt('1180000000000000000');

  const fake: FakeDiscord = {
    origin: '',
    apiUrl: '',
    rest: rest.state,
    received: [],
    rateLimited: 0,
    requests: 0,
    createWebhook() {
      nextId += 1n;
      const id = String(nextId);
      const token = randomBytes(24).toString('base64url');
      webhooks.set(id, { token, deleted: false, windowStart: 0, used: 0, behaviour: {} });
      return { id, token, url: `${fake.origin}/api/webhooks/${id}/${token}` };
    },
    deleteWebhook(id) {
      const hook = webhooks.get(id);
      if (hook) hook.deleted = true;
    },
    setBehaviour(id, behaviour) {
      const hook = webhooks.get(id);
      if (hook) hook.behaviour = { ...hook.behaviour, ...behaviour };
    },
    takeDown(mode = '503') {
      down = mode;
    },
    bringUp() {
      down = null;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    fake.requests += 1;
    if (down === 'reset') {
      req.socket.destroy();
      return;
    }
    if (down === '503') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream connect error');
      return;
    }
    if (req.url?.startsWith('/api/v10/')) {
      rest.handle(req, res, req.url.slice('/api/v10'.length).split('?')[0]!, raw);
      return;
    }
    const match = /^\/api\/webhooks\/(\d+)\/([A-Za-z0-9_-]+)\/?(\?.*)?$/.exec(req.url ?? '');
    const hook = match ? webhooks.get(match[1]!) : undefined;
    if (!match || !hook || hook.deleted || hook.token !== match[2]) {
      json(res, 404, { message: 'Unknown Webhook', code: 10015 });
      return;
    }
    const { behaviour } = hook;
    if (behaviour.refuse === 401) {
      json(res, 401, { message: '401: Unauthorized', code: 0 });
      return;
    }
    if (behaviour.refuse === 403) {
      json(res, 403, { message: 'Missing Access', code: 50001 });
      return;
    }
    if (req.method === 'GET') {
      // Get Webhook with Token: the webhook object, no post made.
      json(res, 200, { id: match[1], type: 1, name: 'fake', channel_id: '1', guild_id: '1' });
      return;
    }
    if (req.method !== 'POST') {
      json(res, 405, { message: '405: Method Not Allowed', code: 0 });
      return;
    }
    const wait = new URLSearchParams(match[3] ?? '').get('wait') === 'true';
    const now = Date.now();
    if (behaviour.alwaysRateLimited !== undefined) {
      fake.rateLimited += 1;
      const after = behaviour.alwaysRateLimited;
      json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: after, global: false },
        { 'retry-after': String(Math.ceil(after)), 'x-ratelimit-scope': 'shared' },
      );
      return;
    }
    if (now - hook.windowStart >= windowMs) {
      hook.windowStart = now;
      hook.used = 0;
    }
    const resetAfter = Math.max(0, hook.windowStart + windowMs - now) / 1000;
    const limitHeaders = (remaining: number) => ({
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-reset': ((hook.windowStart + windowMs) / 1000).toFixed(3),
      'x-ratelimit-bucket': `fake-${match[1]}`,
    });
    if (hook.used >= limit) {
      fake.rateLimited += 1;
      json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: resetAfter, global: false },
        { ...limitHeaders(0), 'retry-after': String(Math.ceil(resetAfter)), 'x-ratelimit-scope': 'user' },
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      json(res, 400, { message: 'Cannot send an empty message', code: 50006 });
      return;
    }
    hook.used += 1;
    nextId += 1n;
    const messageId = String(nextId);
    fake.received.push({ webhookId: match[1]!, body, at: now, messageId, wait, headers: req.headers });
    const answer = () => {
      if (res.destroyed) return;
      if (!wait) {
        res.writeHead(204, limitHeaders(limit - hook.used)).end();
        return;
      }
      const message = {
        id: messageId,
        type: 0,
        channel_id: '1',
        webhook_id: match[1],
        content: (body as { content?: string }).content ?? '',
        embeds: (body as { embeds?: unknown[] }).embeds ?? [],
        timestamp: new Date(now).toISOString(),
      };
      json(res, 200, message, limitHeaders(limit - hook.used));
    };
    if (behaviour.answerDelayMs) setTimeout(answer, behaviour.answerDelayMs);
    else answer();
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => handle(req, res, raw));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.apiUrl = `${fake.origin}/api/v10`;
  return fake;
}

/** Every find the fake got, per webhook, from Discord embeds or json bodies: their `seq`s. */
export function seqsReceived(fake: FakeDiscord, webhookId: string): number[] {
  return fake.received
    .filter((p) => p.webhookId === webhookId)
    .flatMap((p) =>
      p.body.find
        ? [p.body.find.seq as number]
        : (p.body.embeds as { footer?: { text: string } }[]).map((e) => seqOfFooter(e.footer?.text)),
    );
}

function seqOfFooter(text: string | undefined): number {
  const m = /#(\d+)$/.exec(text ?? '');
  return m ? Number(m[1]) : Number.NaN;
}
