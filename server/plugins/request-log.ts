import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/**
 * Query parameters whose values are secrets: script keys, device ids, challenge nonces and
 * signatures (the loader), redemption codes and tokens (kept out should a route ever take them so).
 */
const SECRET_PARAMS = new Set(['key', 'hwid', 'nonce', 'sig', 'code', 'token']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * A webhook's token in a URL (`/api/webhooks/{id}/{token}`, Discord's form; also percent-encoded
 * slashes, as a URL inside a query has them): the id stays, the token goes.
 */
const WEBHOOK_TOKEN =
  /(\/api(?:\/v\d+)?\/webhooks\/\d+\/|%2Fapi(?:%2Fv\d+)?%2Fwebhooks%2F\d+%2F)[^/\s"'?#&%\\]+/gi;

/** `text` with every webhook token replaced by `[redacted]`. */
export function redactWebhookTokens(text: string): string {
  return text.replace(WEBHOOK_TOKEN, '$1[redacted]');
}

/**
 * A log destination that writes every line with webhook tokens redacted, whatever logged them (a
 * request's URL, an error quoting a body, a row the writer set aside): `target` by default stdout,
 * as pino writes it.
 */
export function redactingDestination(target?: DestinationStream): DestinationStream {
  const out = target ?? pino.destination({ dest: 1, sync: false });
  const flushable = out as DestinationStream & { flushSync?: () => void };
  return {
    write: (line: string) => out.write(redactWebhookTokens(line)),
    ...(flushable.flushSync ? { flushSync: () => flushable.flushSync?.() } : {}),
  } as DestinationStream;
}

/** The URL with the values of secret query parameters replaced by `[redacted]` (names decoded as the server reads them). */
export function redactUrl(raw: string): string {
  const url = redactWebhookTokens(raw);
  const start = url.indexOf('?');
  if (start === -1) return url;
  const params = url
    .slice(start + 1)
    .split('&')
    .map((param) => {
      const eq = param.indexOf('=');
      const name = eq === -1 ? param : param.slice(0, eq);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : param;
    });
  return `${url.slice(0, start + 1)}${params.join('&')}`;
}

/**
 * pino's `req` serializer: Fastify's default fields with the secret query values redacted, so
 * `?key=SK-…&hwid=…` never reaches the log. Headers (X-Hardware-Id, cookies) are not logged at all.
 */
export function serializeRequest(request: FastifyRequest) {
  const version = request.headers['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
