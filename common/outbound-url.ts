/*
 * The rules a URL the admin types for the server to call (a notification destination, the BTCPay
 * Server on the Payment Processor tab) must follow, as far as they can be judged from the URL
 * itself (docs/notifications.md, "URL rules"). The server checks them, then resolves the host and
 * judges its addresses (server/features/notifications/outbound-request.ts); the admin's forms check
 * the same rules before sending, so both say the same thing in the same words.
 */

/** What kind of endpoint a URL is for: a Discord webhook or any JSON endpoint. */
export type OutboundKind = 'discord' | 'json';

/** The server's own settings for the rules (NOTIFY_ALLOW_HOSTS, NOTIFY_ALLOW_PRIVATE). */
export interface OutboundPolicy {
  /** Hosts allowed beyond Discord's for 'discord' destinations (NOTIFY_ALLOW_HOSTS). */
  allowHosts: string[];
  /** Private, loopback… addresses allowed, and plain http to them (NOTIFY_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** Each rule's text: what a 400 says (after the field's name) and what the form shows beside the URL. */
export const OUTBOUND_URL_TEXTS = {
  invalid: 'The URL is not a valid URL',
  https:
    'The URL must use https (plain http only to a private address, with NOTIFY_ALLOW_PRIVATE=true on the server)',
  credentials: 'The URL must not carry a user name or password',
  discordHost:
    "A Discord webhook URL must be on Discord's hosts (discord.com, discordapp.com, ptb. or canary.)",
  discordPath: 'A Discord webhook URL has the path /api/webhooks/{id}/{token}',
  unresolved: (host: string) => `The URL's host ${host} does not resolve`,
  privateAddress:
    'The URL resolves to a private, loopback or link-local address, which the server reaches only with NOTIFY_ALLOW_PRIVATE=true',
} as const;

export const DISCORD_WEBHOOK_HOSTS = [
  'discord.com',
  'ptb.discord.com',
  'canary.discord.com',
  'discordapp.com',
  'ptb.discordapp.com',
  'canary.discordapp.com',
];

const WEBHOOK_PATH = /^\/api(?:\/v\d+)?\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/;

/** The URL's host, lower-case, an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** The URL when it follows every rule that needs no DNS answer, else the text of the first it breaks. */
export function checkUrlShape(
  raw: string,
  kind: OutboundKind,
  policy: OutboundPolicy,
): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: OUTBOUND_URL_TEXTS.invalid };
  }
  if (url.protocol !== 'https:' && (url.protocol !== 'http:' || !policy.allowPrivate)) {
    return { problem: OUTBOUND_URL_TEXTS.https };
  }
  if (url.username || url.password) return { problem: OUTBOUND_URL_TEXTS.credentials };
  if (kind === 'discord') {
    const host = hostOf(url);
    const allowedHost = policy.allowHosts.some((h) => h.toLowerCase() === host);
    if (!allowedHost && !DISCORD_WEBHOOK_HOSTS.includes(host))
      return { problem: OUTBOUND_URL_TEXTS.discordHost };
    if (!WEBHOOK_PATH.test(url.pathname)) return { problem: OUTBOUND_URL_TEXTS.discordPath };
  }
  return { url };
}
