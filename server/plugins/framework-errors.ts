import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * The app's `{error}` text for the requests Fastify refuses before routing, when no hook has run
 * (so the security headers are set here), by Fastify's error code; anything else keeps its status
 * and gets a generic text. Fastify's own bodies name the framework and their codes.
 */
function errorText(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'Malformed URL: its path has an invalid percent-encoding';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'URL too long: a path segment is longer than the server accepts';
    default:
      return (error.statusCode ?? 500) < 500 ? 'Bad request' : 'Internal server error';
  }
}

/** Fastify's `frameworkErrors`: a malformed URL (and the like) answered as the app answers every error. */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const status = error.statusCode ?? 500;
  if (status >= 500) request.log.error({ err: error, req: request }, 'request failed before routing');
  void reply
    .status(status)
    .headers(SECURITY_HEADERS)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: errorText(error) }));
};

/** What Node's HTTP parser refused (a request it cannot read, headers too large, too slow), in the app's words. */
function clientErrorAnswer(error: NodeJS.ErrnoException): { status: number; error: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: 'Request timeout' };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: 'Request headers too large' };
  return { status: 400, error: 'Bad request: the server could not read it' };
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse never reaches Fastify, so its
 * answer is written on the socket here, with the security headers, then the connection closes.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or closed connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, error: text } = clientErrorAnswer(error);
    const body = JSON.stringify({ error: text });
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`);
  }
  socket.destroy(error);
}
