import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/*
 * Requests the server makes to URLs an admin typed (webhooks): only where the rules allow, to the
 * address that was checked (no second DNS answer can point it elsewhere), bounded in time and size.
 */

export type OutboundKind = 'discord' | 'json';

export interface OutboundPolicy {
  /** Hosts allowed beyond Discord's for 'discord' destinations (NOTIFY_ALLOW_HOSTS). */
  allowHosts: string[];
  /** Private, loopback… addresses allowed, and plain http to them (NOTIFY_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

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

export const DISCORD_WEBHOOK_HOSTS = [
  'discord.com',
  'ptb.discord.com',
  'canary.discord.com',
  'discordapp.com',
  'ptb.discordapp.com',
  'canary.discordapp.com',
];

const WEBHOOK_PATH = /^\/api(?:\/v\d+)?\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/;

export const REQUEST_TIMEOUT_MS = 5_000;
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Addresses a webhook must not reach unless the operator allows private ones. */
const privateAddresses = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  privateAddresses.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fe80::', 10], // link-local
  ['fc00::', 7], // unique-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of any IPv4, private ones included
] as const) {
  privateAddresses.addSubnet(net, prefix, 'ipv6');
}

/** IPv4 inside an IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx), or null. */
function mappedIpv4(address: string): string | null {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(address);
  if (!m) return null;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an address is private, loopback, link-local, unique-local, CGNAT, unspecified or multicast. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateAddresses.check(address, 'ipv4');
  if (family === 6) {
    const v4 = mappedIpv4(address);
    if (v4) return privateAddresses.check(v4, 'ipv4');
    return privateAddresses.check(address, 'ipv6');
  }
  return true;
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

async function resolve(host: string): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch {
    throw new OutboundUrlError(`The URL's host ${host} does not resolve`, true);
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError('The URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OutboundUrlError('The URL must use https');
  }
  if (url.protocol === 'http:' && !policy.allowPrivate) {
    throw new OutboundUrlError('The URL must use https');
  }
  if (url.username || url.password) {
    throw new OutboundUrlError('The URL must not carry a user name or password');
  }
  const host = hostOf(url);
  const allowedHost = policy.allowHosts.some((h) => h.toLowerCase() === host);
  if (kind === 'discord' && !allowedHost) {
    if (!DISCORD_WEBHOOK_HOSTS.includes(host)) {
      throw new OutboundUrlError(
        "A Discord webhook URL must be on Discord's hosts (discord.com, discordapp.com, ptb. or canary.)",
      );
    }
  }
  if (kind === 'discord' && !WEBHOOK_PATH.test(url.pathname)) {
    throw new OutboundUrlError('A Discord webhook URL has the path /api/webhooks/{id}/{token}');
  }
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new OutboundUrlError(`The URL's host ${host} does not resolve`);
  const anyPrivate = addresses.some((a) => isPrivateAddress(a.address));
  if (anyPrivate && !policy.allowPrivate) {
    throw new OutboundUrlError(
      'The URL resolves to a private, loopback or link-local address, which webhooks may not reach',
    );
  }
  if (url.protocol === 'http:' && !addresses.every((a) => isPrivateAddress(a.address))) {
    throw new OutboundUrlError('The URL must use https (plain http only to a private address)');
  }
  return { url, addresses };
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
): Promise<OutboundResponse> {
  const { url, addresses } = await checkOutboundUrl(raw, kind, policy);
  const pinned = addresses[0]!;
  const payload = Buffer.from(JSON.stringify(body));
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
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'Scanline-Notifications/1.0',
        },
        // The checked addresses, never a second lookup (DNS rebinding).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) {
            // Every checked address (Node tries them in turn), none other.
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, addresses);
          } else {
            callback(null, pinned.address, pinned.family);
          }
        },
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
          if (size >= MAX_ANSWER_BYTES) return;
          const room = MAX_ANSWER_BYTES - size;
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(part);
          size += part.length;
          if (size >= MAX_ANSWER_BYTES) {
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
      req.destroy(new Error(`No answer within ${REQUEST_TIMEOUT_MS / 1000} s`));
    }, REQUEST_TIMEOUT_MS);
    req.on('error', (e) => finish(e));
    req.end(payload);
  });
}

/** The kind for the re-check: a Discord host's URL is held to Discord's path rule. */
function inferKind(raw: string): OutboundKind {
  try {
    return DISCORD_WEBHOOK_HOSTS.includes(hostOf(new URL(raw))) ? 'discord' : 'json';
  } catch {
    return 'json';
  }
}
