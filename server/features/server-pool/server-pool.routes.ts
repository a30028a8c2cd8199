import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../../../common/auth.ts';
import {
  AddPoolServersRequestSchema,
  AddPoolServersResponseSchema,
  ClaimServerRequestSchema,
  ClaimServerResponseSchema,
  ReleaseServerRequestSchema,
  ReleaseServerResponseSchema,
  ServerPoolStatsResponseSchema,
} from '../../../common/server-pool.ts';
import type { AppContext, FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { guardedBy } from '../../plugins/route-guards.ts';
import { isSessionValid } from '../auth/auth.service.ts';
import { botCallHooks } from '../fleet/bot-token.ts';
import { lastActivityOf, markBotError } from '../fleet/fleet.service.ts';
import {
  addPoolServers,
  claimServer,
  getServerPoolStats,
  type PoolFleetLink,
  prunePool,
  releaseServer,
  sweepExpiredLeases,
} from './server-pool.service.ts';

export const serverPoolRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // A bot that heartbeats to the fleet keeps its lease; one that fails everywhere shows as error there.
  const fleet: PoolFleetLink = {
    lastActivity: (ghostId) => lastActivityOf(ctx, ghostId) ?? undefined,
    markBotError: (ghostId, reason) => markBotError(ctx, ghostId, reason),
    holds: (ghostId) => ctx.services.fleet.holds(ghostId),
  };
  // onRequest, before the body is validated: a caller without the token learns nothing about the fields.
  // A bot's own credential claims and releases for that bot only (preHandler, once the body is read).
  const botOnly = botCallHooks(ctx);

  // The spec's path is outside /api/admin, where the admin guard does not look: guarded here.
  app.get(
    '/api/server-pool/stats',
    {
      onRequest: requireAdminSession(ctx),
      schema: {
        summary: 'Pool servers by status, the bots holding them, quarantined servers and flagged bots',
        response: responses({ 200: ServerPoolStatsResponseSchema }),
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return getServerPoolStats(ctx);
    },
  );

  app.post(
    '/api/server-pool/servers',
    {
      ...botOnly,
      schema: {
        summary: 'Offer game servers to the pool (known or quarantined ones are ignored)',
        body: AddPoolServersRequestSchema,
        response: responses({ 200: AddPoolServersResponseSchema }),
      },
    },
    async (request) => addPoolServers(ctx, request.body.servers),
  );

  app.post(
    '/api/server-pool/claim',
    {
      ...botOnly,
      schema: {
        summary: 'Lease an available server to a bot, optionally of one place',
        body: ClaimServerRequestSchema,
        response: responses({ 200: ClaimServerResponseSchema }),
      },
    },
    async (request) => claimServer(ctx, request.body, fleet),
  );

  app.post(
    '/api/server-pool/release',
    {
      ...botOnly,
      schema: {
        summary: "Give a leased server back, saying how it went ('ok', 'full' or 'error')",
        body: ReleaseServerRequestSchema,
        response: responses({ 200: ReleaseServerResponseSchema }),
      },
    },
    async (request) => releaseServer(ctx, request.body, { ip: request.ip }, fleet),
  );

  schedulePoolSweep(app, ctx, fleet);
};

/** onRequest hook: 401 without a live admin session, as the admin guard answers under /api/admin. */
function requireAdminSession(ctx: AppContext) {
  return guardedBy('adminSession', async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (await isSessionValid(ctx, request.cookies[SESSION_COOKIE])) return;
    return void reply.status(401).send({ error: 'Authentication required' });
  });
}

/**
 * Takes back expired leases a few times per lease (a claim that finds the pool empty also does), and
 * prunes the pool's history hourly. Every instance sweeps: each return is a conditional update.
 */
function schedulePoolSweep(app: FastifyInstance, ctx: AppContext, fleet: PoolFleetLink): void {
  const everyMs = Math.min(30_000, (ctx.config.POOL_LEASE_SECONDS * 1000) / 4);
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<void> = Promise.resolve();
  const run = (label: string, work: () => Promise<unknown>) => {
    running = running.then(async () => {
      try {
        await work();
      } catch (error) {
        app.log.error({ err: error }, `server pool ${label} failed`);
      }
    });
  };
  app.addHook('onReady', async () => {
    run('history prune', () => prunePool(ctx));
    timers = [
      setInterval(() => run('lease sweep', () => sweepExpiredLeases(ctx, fleet)), everyMs).unref(),
      setInterval(() => run('history prune', () => prunePool(ctx)), 60 * 60 * 1000).unref(),
    ];
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await running;
  });
}
