import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { CLOSE_CODES } from './connection.ts';

/** The largest message a client may send on any socket (/ws, /ws/feed); ws enforces it. */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/** ws's code for a message over `maxPayload`; it closes the socket with 1009 itself. */
const MESSAGE_TOO_BIG = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

/**
 * What happens to an error on an open socket (the websocket plugin's `errorHandler`, for every
 * socket route). A client breaking the protocol is a refusal, not a server fault: ws has already
 * answered it with a close frame and its code (1009 for a message over the limit, 1007 for bad
 * UTF-8, 1002 for a malformed frame), so it is logged as one warn line without a stack and the
 * close is left to finish cleanly, so the client reads the code. Anything else is logged as an
 * error and the socket dropped.
 */
export function handleSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === MESSAGE_TOO_BIG) {
    request.log.warn(
      { code, limitBytes: MAX_SOCKET_MESSAGE_BYTES, path: request.url.split('?')[0] },
      `socket message over ${MAX_SOCKET_MESSAGE_BYTES} bytes: closed with ${CLOSE_CODES.messageTooBig}`,
    );
    if (socket.readyState === socket.OPEN) socket.close(CLOSE_CODES.messageTooBig, 'Message too big');
    return;
  }
  if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
    request.log.warn(
      { code, reason: error.message, path: request.url.split('?')[0] },
      'socket closed: the client broke the protocol',
    );
    return;
  }
  request.log.error({ err: error }, 'socket error');
  socket.terminate();
}
