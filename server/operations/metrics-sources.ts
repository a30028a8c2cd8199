import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { countAllTargetStates } from '../features/configuration/configuration-figures.store.ts';
import { findEmergencyState } from '../features/configuration/emergency.store.ts';
import { countPoolServers } from '../features/server-pool/server-pool.store.ts';
import type { ScrapeSources, StoredFigures } from './scrape-gauges.ts';

/**
 * How long a scrape waits for the database's figures. Prometheus times a scrape out after 10 s by
 * default; a database that does not answer within this gets the last figures and
 * `scanline_stored_figures_up 0`, never a hung or failed scrape.
 */
export const STORED_FIGURES_TIMEOUT_MS = 1000;

/** Resolves with `promise`'s value, or undefined once `ms` passed (the promise goes on alone). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

/**
 * What /metrics reads at scrape time: the fleet's and the transport's in-memory state, the writer's
 * counts, and three small queries (pool servers, configuration targets, emergency state), at most one
 * read of them in flight: a database that hangs is not asked again by every scrape.
 */
export function scrapeSources(ctx: AppContext, app: FastifyInstance): ScrapeSources {
  const { writer } = app;
  let reading: Promise<StoredFigures> | undefined;
  const readStored = async (): Promise<StoredFigures> => {
    const [pool, configTargets, emergency] = await Promise.all([
      countPoolServers(ctx.db),
      countAllTargetStates(ctx.db),
      findEmergencyState(ctx.db),
    ]);
    return { poolServers: pool.byStatus, configTargets, emergencyStopped: emergency.stopped };
  };
  return {
    socketsByKind() {
      const { transport } = ctx.services;
      const open = transport.connections.countByKind();
      return transport.registered.map(({ kind }): [string, number] => [kind, open.get(kind) ?? 0]);
    },
    botsByStatus: () => ctx.services.fleet.state.countByStatus(ctx.now()),
    writer: () => ({
      queuedRows: writer.pendingRows,
      writtenRows: writer.counts.written,
      setAsideRows: writer.counts.setAside,
    }),
    rateLimits() {
      const store = app.rateLimitStore;
      return { usingFallback: store.usingFallback ?? false, fallbackHits: store.fallbackHits ?? 0 };
    },
    stored() {
      reading ??= readStored().finally(() => {
        reading = undefined;
      });
      return within(reading, STORED_FIGURES_TIMEOUT_MS);
    },
  };
}
