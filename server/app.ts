import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { AppBase, AppContext } from './context.ts';
import { BatchWriter } from './db/batch-writer.ts';
import { registerAdminGuard } from './features/auth/admin-guard.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { bindingsRoutes } from './features/bindings/bindings.routes.ts';
import { deleteConfiguration } from './features/configuration/bot-configurations.store.ts';
import {
  acknowledgeConfig,
  botConnected,
  botDisconnected,
} from './features/configuration/config-delivery.service.ts';
import { configurationRoutes } from './features/configuration/configuration.routes.ts';
import { handOverFrames } from './features/configuration/http-bot-frames.service.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { feedRoutes } from './features/feed/feed.routes.ts';
import { adminProtocol } from './features/fleet/admin.protocol.ts';
import { botProtocol } from './features/fleet/bot.protocol.ts';
import { createBotEventBudget } from './features/fleet/bot-event-budget.ts';
import { fleetRoutes, registerFleet } from './features/fleet/fleet.routes.ts';
import { Fleet } from './features/fleet/fleet.service.ts';
import { fleetAdminRoutes } from './features/fleet/fleet-admin.routes.ts';
import { analysisRoutes } from './features/health/analysis/analysis.routes.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { healthReportRoutes } from './features/health/report/report.routes.ts';
import { keyStatusRoutes } from './features/key-status/key-status.routes.ts';
import { licensingRoutes } from './features/licensing/licensing.routes.ts';
import { loaderRoutes } from './features/loader/loader.routes.ts';
import { scriptAccessRoutes } from './features/loader/script-access.routes.ts';
import { notificationsRoutes } from './features/notifications/notifications.routes.ts';
import {
  createNotificationOutbox,
  registerNotifications,
} from './features/notifications/notifications-lifecycle.ts';
import { paymentsRoutes } from './features/payments/payments.routes.ts';
import { paymentsAdminRoutes } from './features/payments/payments-admin.routes.ts';
import { registerPaymentsReconciler } from './features/payments/payments-reconciler.ts';
import { publicRoutes } from './features/public/public.routes.ts';
import { redemptionRoutes } from './features/redemption/redemption.routes.ts';
import { scriptKeysRoutes } from './features/script-keys/script-keys.routes.ts';
import { scriptsRoutes } from './features/scripts/scripts.routes.ts';
import { limitedClientOf } from './features/security/client-address.ts';
import { PendingWrites } from './features/security/pending-writes.ts';
import { registerRateLimits } from './features/security/rate-limit-hooks.ts';
import { rateLimitsRoutes } from './features/security/rate-limits.routes.ts';
import { securityRoutes } from './features/security/security.routes.ts';
import { serverPoolRoutes } from './features/server-pool/server-pool.routes.ts';
import { releaseServersOf } from './features/server-pool/server-pool.store.ts';
import { systemRoutes } from './features/system/system.routes.ts';
import { documentedFeature } from './operations/feature-tags.ts';
import { registerHttpMetrics } from './operations/http-metrics.ts';
import { metricsRoutes } from './operations/metrics.routes.ts';
import { createMetrics } from './operations/metrics.ts';
import { registerApiDocs } from './operations/openapi.ts';
import { probesRoutes } from './operations/probes.routes.ts';
import { responseSerializerCompiler, strictResponses } from './operations/response-serializer.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors.ts';
import { registerOriginCheck } from './plugins/origin-check.ts';
import { redactingDestination, serializeRequest } from './plugins/request-log.ts';
import { registerRequestTimings } from './plugins/request-timings.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerTextCheck } from './plugins/text-check.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { realtimeRoutes } from './realtime/socket.ts';
import { handleSocketError, MAX_SOCKET_MESSAGE_BYTES } from './realtime/socket-errors.ts';
import { Transport } from './realtime/transport.ts';
import { Turns } from './turns.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered (method and URL pattern), so tests can walk the whole surface. */
    routeTable: { method: string; url: string }[];
    /** Audit rows and usage counters the hot paths queue; written in batches, flushed on close. */
    pendingWrites: PendingWrites;
    /** The process's one batched writer (server/db/batch-writer.ts). */
    writer: BatchWriter;
  }
}

export interface BuildAppOptions {
  /** pino logger options (a level, and a stream other than stdout), or false for none (tests). */
  logger?: boolean | { level: string; stream?: DestinationStream };
}

/** Builds the whole server: cross-cutting plugins first, then every feature. Used by main and tests. */
export async function buildApp(base: AppBase, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // The services are filled in below, before any feature (or hook) reads them.
  const ctx = base as AppContext;
  const app = Fastify({
    logger: options.logger
      ? {
          ...(options.logger === true ? {} : options.logger),
          // Every line, whatever logged it, without webhook tokens (plugins/request-log.ts).
          stream: redactingDestination(options.logger === true ? undefined : options.logger.stream),
          serializers: { req: serializeRequest },
        }
      : false,
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // What Fastify and Node refuse before any route or hook (a malformed URL, an unreadable request)
    // is answered as the app answers every error: `{error}` JSON with the security headers.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ strict: strictResponses(), log: app.log }));
  registerErrorHandling(app);
  acceptEmptyJsonBodies(app);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url });
  });

  registerSecurityHeaders(app);
  registerRequestTimings(app, ctx.now);
  const metrics = createMetrics(ctx.config.METRICS_ENABLED);
  registerHttpMetrics(app, metrics);
  await app.register(cookie);
  // Per-route limits for the socket upgrade and error reports (`config.rateLimit`), counted where the
  // licensing calls' own two-scope limits count (features/security/rate-limit-hooks.ts): in Redis with REDIS_URL.
  const routeLimitStore = registerRateLimits(app, ctx);
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (req) => req.ip ?? 'inject',
    store: routeLimitStore,
  });
  await app.register(websocket, {
    options: { maxPayload: MAX_SOCKET_MESSAGE_BYTES },
    // A message over the limit closes with 1009 and one warn line, not a stack trace at error level.
    errorHandler: (error, socket, request) => handleSocketError(error, socket, request),
    // Close with 1012 (service restart), not the plugin's bare close, so clients know to reconnect
    // (to another instance where there is one): the server closes only to stop or restart.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(1012, 'Server restarting');
      this.server.removeAllListeners('upgrade');
      this.websocketServer.close(done);
    },
  });
  // After the websocket plugin, whose onRequest hook must have marked an upgrade for a refusal to
  // release its socket; before every other hook, so no U+0000 or lone surrogate in a query, params
  // or body reaches a session lookup, a rate limit's audit row or the database.
  registerTextCheck(app);
  // After the websocket plugin, whose onRequest hook must have marked an upgrade for a refusal to
  // release its socket; before the admin guard, so a forged call never reaches a session lookup.
  registerOriginCheck(app, ctx);
  registerAdminGuard(app, ctx);
  // One writer for every batched row (fleet events, audit rows, usage counters), written last at close.
  const writer = new BatchWriter(ctx.db, app.log, {
    maxPendingRows: ctx.config.WRITER_MAX_PENDING_ROWS,
    transacted: (seconds) => metrics.writerFlushed(seconds),
  });
  app.decorate('writer', writer);
  app.decorate(
    'pendingWrites',
    new PendingWrites(writer, (type, rows) => metrics.auditRowsWritten(type, rows)),
  );
  app.addHook('onClose', () => writer.close());
  // The realtime transport: features register their protocols with it and send through its publisher.
  const transport = new Transport({
    bus: ctx.bus,
    now: ctx.now,
    clientAddress: limitedClientOf,
    checkOutbound: process.env.NODE_ENV === 'development' || process.env.NODE_ENV === 'test',
  });
  const fleet = new Fleet(ctx, app.log, writer);
  ctx.services = {
    metrics,
    transport,
    publisher: transport.publisher,
    fleet,
    botEventBudget: createBotEventBudget(ctx.config),
    // A removed bot's configuration and pool leases go with it (features above the fleet's layer).
    botRemovalSteps: { deleteConfiguration, releaseServers: releaseServersOf },
    configurationProgress: new Turns(),
    // A bot without a socket is handed its frames in its POST /api/bot/events answer.
    httpBotFrames: {
      configAcknowledged: (ghostId, ack) => acknowledgeConfig(ctx, ghostId, ack),
      handOver: (ghostId) => handOverFrames(ctx, ghostId),
    },
    analysisRuns: new Turns(),
    // Finds' outbox rows ride with the fleet's discovery writes (a feature above the fleet's layer).
    notificationOutbox: createNotificationOutbox(ctx, app.log, fleet),
  };
  registerFleet(app, ctx);
  registerNotifications(app, ctx);
  registerPaymentsReconciler(app, ctx);
  await registerApiDocs(app);

  for (const feature of [
    probesRoutes,
    authRoutes,
    publicRoutes,
    dashboardRoutes,
    systemRoutes,
    licensingRoutes,
    fleetRoutes,
    fleetAdminRoutes,
    bindingsRoutes,
    redemptionRoutes,
    scriptKeysRoutes,
    scriptAccessRoutes,
    securityRoutes,
    rateLimitsRoutes,
    scriptsRoutes,
    loaderRoutes,
    keyStatusRoutes,
    feedRoutes,
    healthRoutes,
    healthReportRoutes,
    analysisRoutes,
    serverPoolRoutes,
    configurationRoutes,
    notificationsRoutes,
    paymentsRoutes,
    paymentsAdminRoutes,
    metricsRoutes,
  ]) {
    await app.register(documentedFeature(feature), { ctx });
  }
  // Tried in this order on /ws: an admin session cookie first, then a bot token.
  transport.registerProtocol(adminProtocol(ctx));
  // A bot's configuration rides on its socket (features above the fleet's layer).
  transport.registerProtocol(
    botProtocol(ctx, {
      helloAnswered: (ghostId, socket) => botConnected(ctx, ghostId, socket),
      configAcknowledged: (ghostId, ack) => acknowledgeConfig(ctx, ghostId, ack),
      socketClosed: (ghostId, socketId) => botDisconnected(ctx, ghostId, socketId),
    }),
  );
  await app.register(realtimeRoutes, { transport });

  await registerWebApp(app, ctx.config.WEB_DIST);
  return app;
}

/**
 * A POST with `Content-Type: application/json` and no body (logout, revoke) is a valid call with no
 * payload, not a 400: parse it as undefined and leave everything else to Fastify's safe JSON parser.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    void parseJson(request, text, done);
  });
}
