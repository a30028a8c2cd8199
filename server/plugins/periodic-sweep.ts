import type { FastifyInstance } from 'fastify';

export interface PeriodicSweep {
  /** What it deletes, for the log lines ('audit log rows past their retention'). */
  name: string;
  everyMs: number;
  /** One sweep; `stopped` turns true when the app closes (check it between batches). Returns rows deleted. */
  run(stopped: () => boolean): Promise<number>;
}

/**
 * Runs `sweep` when the app is ready and every `everyMs` after, one sweep at a time (a long backlog
 * delete is never started twice), until the app closes; closing waits for a sweep in progress. Every
 * instance sweeps (deletes are idempotent); a failed sweep is logged and tried again next time.
 */
export function schedulePeriodicSweep(app: FastifyInstance, sweep: PeriodicSweep): void {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let sweeping: Promise<void> = Promise.resolve();
  // The chain's tail covers every sweep started so far.
  sweepsOf.set(app, [...(sweepsOf.get(app) ?? []), () => sweeping]);
  const runOnce = () => {
    sweeping = sweeping.then(async () => {
      if (closed) return;
      try {
        const deleted = await sweep.run(() => closed);
        if (deleted > 0) app.log.info({ deleted }, `${sweep.name} deleted`);
      } catch (error) {
        app.log.error({ err: error }, `sweep of ${sweep.name} failed`);
      }
    });
  };
  app.addHook('onReady', async () => {
    runOnce();
    timer = setInterval(runOnce, sweep.everyMs).unref();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await sweeping;
  });
}

/** Each app's sweeps in flight, so a test can wait for the one the app started when it became ready. */
const sweepsOf = new WeakMap<FastifyInstance, Array<() => Promise<void>>>();

/** Resolves once every sweep started so far on `app` has finished. */
export async function periodicSweepsIdle(app: FastifyInstance): Promise<void> {
  await Promise.all((sweepsOf.get(app) ?? []).map((tail) => tail()));
}
