import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  checkUrlShape,
  DISCORD_WEBHOOK_HOSTS,
  hostOf,
  OUTBOUND_URL_TEXTS,
  type OutboundKind,
  type OutboundPolicy,
} from '../../../common/outbound-url.ts';
import { isPublicAddress } from './outbound-address.ts';

/*
 * Requests the server makes to URLs an admin typed (notification destinations, the BTCPay Server
 * entered on the Payment Processor tab): only where the rules allow, to the address that was checked
 * (no second DNS answer can point it elsewhere), bounded in time and size. Which addresses are
 * public is outbound-address.ts's.
 */

export type { OutboundKind, OutboundPolicy } from '../../../common/outbound-url.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface CheckedUrl {
  url: URL;
  addresses: ResolvedAddress[];
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The answer's first 64 KiB, as text. */
  body: string;
}

/** A URL refused by the rules: its message names the rule, fit for a 400. */
export class OutboundUrlError extends Error {
  override name = 'OutboundUrlError';
  /** The host did not resolve: maybe DNS is away for a moment, so a delivery tries again. */
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

export const REQUEST_TIMEOUT_MS = 5_000;
export const MAX_ANSWER_BYTES = 64 * 1024;

async function resolve(host: string): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch {
    throw new OutboundUrlError(OUTBOUND_URL_TEXTS.unresolved(host), true);
  }
}

/**
 * Checks a destination URL against the rules and resolves its host. Throws an OutboundUrlError
 * naming the broken rule.
 */
export async function checkOutboundUrl(
  raw: string,
  kind: OutboundKind,
  policy: OutboundPolicy,
): Promise<CheckedUrl> {
  const shape = checkUrlShape(raw, kind, policy);
  if ('problem' in shape) throw new OutboundUrlError(shape.problem);
  const { url } = shape;
  const host = hostOf(url);
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new OutboundUrlError(OUTBOUND_URL_TEXTS.unresolved(host));
  const anyPrivate = addresses.some((a) => !isPublicAddress(a.address));
  if (anyPrivate && !policy.allowPrivate) {
    throw new OutboundUrlError(OUTBOUND_URL_TEXTS.privateAddress);
  }
  if (url.protocol === 'http:' && addresses.some((a) => isPublicAddress(a.address))) {
    throw new OutboundUrlError(OUTBOUND_URL_TEXTS.https);
  }
  return { url, addresses };
}

/** One request: GET, or POST / PUT / DELETE with or without a body. */
export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange (REQUEST_TIMEOUT_MS unless said). */
  timeoutMs?: number;
  /** The answer read at most (MAX_ANSWER_BYTES unless said). */
  maxAnswerBytes?: number;
}

/**
 * POSTs JSON to a checked URL: connected to the checked address (SNI and Host stay the host name),
 * no redirect followed (a 3xx is the answer), 5 s for the whole exchange, at most 64 KiB read.
 * Throws on a refused URL (OutboundUrlError) and on network errors and the timeout.
 */
export async function postJson(
  raw: string,
  body: unknown,
  policy: OutboundPolicy,
  kind: OutboundKind = inferKind(raw),
  extra: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<OutboundResponse> {
  return sendOutbound(
    raw,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Scanline-Notifications/1.0',
        ...extra.headers,
      },
      body: JSON.stringify(body),
      timeoutMs: extra.timeoutMs,
    },
    policy,
    kind,
  );
}

/**
 * Sends a request to a URL checked against `policy` (checkOutboundUrl) and connects only to the
 * addresses that check resolved, never a second lookup (DNS rebinding). No redirect is followed;
 * the exchange is bounded in time and the answer in size. Throws an OutboundUrlError on a refused
 * URL, and the network's error or an OutboundTimeoutError otherwise. `policy` null: a URL the
 * operator set in the environment, sent as it is (no rule applies, the system resolver is asked).
 */
export async function sendOutbound(
  raw: string,
  request: OutboundRequest,
  policy: OutboundPolicy | null,
  kind: OutboundKind = 'json',
): Promise<OutboundResponse> {
  const { url, addresses } = policy
    ? await checkOutboundUrl(raw, kind, policy)
    : { url: new URL(raw), addresses: null };
  const pinned = addresses?.[0];
  const payload = request.body === undefined ? undefined : Buffer.from(request.body);
  const timeoutMs = request.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const maxBytes = request.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolvePromise, reject) => {
    let settled = false;
    const finish = (err: Error | null, res?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolvePromise(res!);
    };
    const req = transport.request(
      url,
      {
        method: request.method,
        headers: {
          'user-agent': 'Scanline/1.0',
          ...request.headers,
          ...(payload ? { 'content-length': String(payload.length) } : {}),
        },
        // The checked addresses, never a second lookup (DNS rebinding).
        lookup:
          addresses && pinned
            ? (_host, options, callback) => {
                if ((options as { all?: boolean }).all) {
                  // Every checked address (Node tries them in turn), none other.
                  (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
                } else {
                  callback(null, pinned.address, pinned.family);
                }
              }
            : undefined,
        servername: isIP(hostOf(url)) ? undefined : hostOf(url),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          }
          finish(null, {
            status: res.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= maxBytes) return;
          const room = maxBytes - size;
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(part);
          size += part.length;
          if (size >= maxBytes) {
            // Enough read: the rest is not ours to wait for.
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (e) => finish(e));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new OutboundTimeoutError(`No answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on('error', (e) => finish(e));
    req.end(payload);
  });
}

/** The other side did not answer in time. */
export class OutboundTimeoutError extends Error {
  override name = 'OutboundTimeoutError';
}

/** The kind for the re-check: a Discord host's URL is held to Discord's path rule. */
function inferKind(raw: string): OutboundKind {
  try {
    return DISCORD_WEBHOOK_HOSTS.includes(hostOf(new URL(raw))) ? 'discord' : 'json';
  } catch {
    return 'json';
  }
}
