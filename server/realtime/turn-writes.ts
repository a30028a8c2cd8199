import type { WebSocket } from 'ws';

/*
 * Writes to a socket during one turn of the event loop leave in one system call. Fan-out is
 * dominated by the kernel write per frame per socket (a dashboard gets every hop and discovery of
 * the fleet: hundreds a second); so the first write of a turn corks the socket's transport and
 * one setImmediate, after the turn's I/O callbacks, uncorks every socket written to. Each frame is
 * still its own WebSocket message (the wire does not change); it leaves at most one turn later.
 */

/**
 * Held output past which a socket is uncorked at once: a burst (a resume of thousands of missed
 * events) goes on to the kernel as it did unbatched, rather than piling up here and reading as a
 * client too slow to serve (fleet-stream.ts, connection.ts check `bufferedAmount`).
 */
const FLUSH_AT_BYTES = 64 * 1024;

/** The TCP socket under a ws socket (`_socket`, which ws sets once the upgrade is done). */
interface Transport {
  cork(): void;
  uncork(): void;
  readonly writableLength: number;
}

const corked = new Set<Transport>();
let flushScheduled = false;

function transportOf(socket: WebSocket): Transport | undefined {
  const transport = (socket as unknown as { _socket?: Partial<Transport> | null })._socket;
  return typeof transport?.cork === 'function' && typeof transport.uncork === 'function'
    ? (transport as Transport)
    : undefined;
}

function uncorkAll(): void {
  flushScheduled = false;
  for (const transport of corked) transport.uncork();
  corked.clear();
}

/**
 * Sends one text message, batched with the socket's other writes of this turn. `data` is the
 * frame's UTF-8 bytes, encoded once per frame rather than once per socket it goes to.
 */
export function sendInTurn(socket: WebSocket, data: Buffer): void {
  const transport = transportOf(socket);
  if (transport && !corked.has(transport)) {
    transport.cork();
    corked.add(transport);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(uncorkAll);
    }
  }
  socket.send(data, { binary: false });
  if (transport && transport.writableLength > FLUSH_AT_BYTES && corked.delete(transport)) transport.uncork();
}
