import type { FastifyInstance } from 'fastify';
import type { AppBase, AppContext } from '../context.ts';

/**
 * A socket that has not answered its close (1012) within this long is cut: a frozen browser tab
 * or a bot on a dead network must not hold the shutdown for ws's own 30 s close timeout.
 */
const SOCKET_CLOSE_GRACE_MS = 2000;

/**
 * The graceful stop, in order:
 * 1. /readyz answers 503 `shutting-down`;
 * 2. app.close(): every socket closes with 1012 (service restart) so bots and dashboards reconnect,
 *    to another instance where there is one; the listener stops accepting; requests in flight
 *    finish; then the batched writer flushes (its onClose hook) and the features stop their timers;
 * 3. the bus and the database connections close.
 * Resolves with the exit code: 0 when all of it finished within `timeoutMs`. Past it, what was
 * still running is logged and the code is 1: the operator learns the stop was not clean (rows may
 * not have been written), and a supervisor restarting on failure does so.
 */
export async function shutDown(
  app: FastifyInstance,
  base: AppBase,
  { signal, timeoutMs }: { signal: string; timeoutMs: number },
): Promise<number> {
  const ctx = base as AppContext; // buildApp filled in the services
  const started = Date.now();
  let step = 'closing the server (sockets, requests in flight, the batched writer)';
  app.log.info({ signal, timeoutMs }, 'shutting down');
  ctx.services.readiness?.beginShutdown();

  let deadline: NodeJS.Timeout | undefined;
  const overdue = new Promise<number>((resolve) => {
    deadline = setTimeout(() => {
      app.log.error(
        { step, writerPendingRows: app.writer.pendingRows },
        `shutdown did not finish within ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): still ${step}; exiting with 1`,
      );
      resolve(1);
    }, timeoutMs);
  });
  const cutLaggards = setTimeout(() => {
    for (const socket of app.websocketServer?.clients ?? []) socket.terminate();
  }, SOCKET_CLOSE_GRACE_MS);
  cutLaggards.unref();

  const graceful = (async () => {
    await app.close();
    step = 'closing the bus';
    await ctx.bus.close();
    step = 'closing the database';
    await ctx.db.destroy();
    app.log.info({ ms: Date.now() - started }, 'shut down cleanly');
    return 0;
  })().catch((err: unknown) => {
    app.log.error({ err, step }, `shutdown failed while ${step}`);
    return 1;
  });
  try {
    return await Promise.race([graceful, overdue]);
  } finally {
    clearTimeout(deadline);
    clearTimeout(cutLaggards);
  }
}

/**
 * SIGTERM (an orchestrator, systemd, a deploy) and SIGINT (Ctrl-C) stop the server gracefully,
 * then exit with shutDown's code. A second signal while stopping exits at once with 1.
 */
export function exitGracefullyOnSignals(app: FastifyInstance, base: AppBase): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal while shutting down: exiting at once');
      process.exit(1);
    }
    stopping = true;
    void shutDown(app, base, { signal, timeoutMs: base.config.SHUTDOWN_TIMEOUT_MS }).then((code) =>
      process.exit(code),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
