import type { FastifyRequest } from 'fastify';

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

/** The URL with the values of secret query parameters replaced by `[redacted]` (names decoded as the server reads them). */
export function redactUrl(url: string): string {
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
