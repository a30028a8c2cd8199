import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
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

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A change the administrator made: a state-changing call to `/api/admin/*` (sign-in and sign-out
 * included) that was carried out. A refused one (4xx) is anybody's, so it is only counted.
 */
export function isAdminAction(method: string, route: string | undefined, statusCode: number): boolean {
  return statusCode < 400 && !READ_ONLY_METHODS.has(method) && route?.startsWith('/api/admin/') === true;
}

/** Whether `log` writes lines of `level` (its level may be a route's `logLevel`). */
export function logsAt(log: FastifyBaseLogger, level: 'debug' | 'info'): boolean {
  return (pino.levels.values[log.level] ?? Number.POSITIVE_INFINITY) <= pino.levels.values[level]!;
}

/**
 * Fastify's request lines, made readable (docs/operations.md, "Logs"): one line per request, when
 * it is answered, instead of two, and at `debug`, except an admin's change (`info`) and a failure
 * (`error`). Bots' claims, releases and events, the loader, the feed, the dashboards' reads and
 * every refusal are counted in the minute's summary instead (operations/activity-summary.ts), so a
 * fleet or a hostile client cannot fill the disk at `info`. A client hanging up mid-download goes
 * to `debug` too. (Fastify's lines for an unknown route and its default error handler's never come:
 * the app has its own, plugins/web-app.ts and plugins/errors.ts.)
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
      return;
    }
    const admin = isAdminAction(request.method, request.routeOptions.url, status);
    if (!logsAt(reply.log, admin ? 'info' : 'debug')) return;
    const line = `${request.method} ${redactUrl(request.url)} ${status} (${responseTime} ms)`;
    const fields = { req: request, res: reply, responseTime };
    if (admin) reply.log.info(fields, `admin: ${line}`);
    else reply.log.debug(fields, line);
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      reply.log.debug({ res: reply }, 'stream closed prematurely');
    else super.streamError(error, request, reply);
  }
}
