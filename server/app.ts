import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { AppBase, AppContext, AppServices } from './context.ts';
import { BatchWriter } from './db/batch-writer.ts';
import type { Feature } from './feature.ts';
import { alertsFeature } from './features/alerts/alerts.feature.ts';
import { authFeature } from './features/auth/auth.feature.ts';
import { bindingsFeature } from './features/bindings/bindings.feature.ts';
import { configurationFeature } from './features/configuration/configuration.feature.ts';
import { dashboardFeature } from './features/dashboard/dashboard.feature.ts';
import { discordFeature } from './features/discord/discord.feature.ts';
import { feedFeature } from './features/feed/feed.feature.ts';
import { fleetFeature } from './features/fleet/fleet.feature.ts';
import { healthFeature } from './features/health/health.feature.ts';
import { keyStatusFeature } from './features/key-status/key-status.feature.ts';
import { licensingFeature } from './features/licensing/licensing.feature.ts';
import { loaderFeature } from './features/loader/loader.feature.ts';
import { notificationsFeature } from './features/notifications/notifications.feature.ts';
import { paymentsFeature } from './features/payments/payments.feature.ts';
import { publicFeature } from './features/public/public.feature.ts';
import { redemptionFeature } from './features/redemption/redemption.feature.ts';
import { scriptKeysFeature } from './features/script-keys/script-keys.feature.ts';
import { scriptsFeature } from './features/scripts/scripts.feature.ts';
import {
  limitedClientOf,
  PendingWrites,
  registerRateLimits,
  securityFeature,
} from './features/security/security.feature.ts';
import { serverPoolFeature } from './features/server-pool/server-pool.feature.ts';
import { systemFeature } from './features/system/system.feature.ts';
import { registerActivitySummary } from './operations/activity-summary.ts';
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
import { RequestLog, redactingDestination, serializeRequest } from './plugins/request-log.ts';
import { registerRequestTimings } from './plugins/request-timings.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerTextCheck } from './plugins/text-check.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { realtimeRoutes } from './realtime/socket.ts';
import { handleSocketError, MAX_SOCKET_MESSAGE_BYTES } from './realtime/socket-errors.ts';
import { Transport } from './realtime/transport.ts';

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

/**
 * Every feature, by its entry (server/feature.ts). Each step runs for them in this order: their
 * routes register in it, a feature's services may use those of the features before it (the
 * notifications' outbox writes with the fleet's discoveries), and their jobs start and stop in it.
 */
const FEATURES = [
  authFeature,
  publicFeature,
  dashboardFeature,
  systemFeature,
  licensingFeature,
  fleetFeature,
  bindingsFeature,
  redemptionFeature,
  scriptKeysFeature,
  loaderFeature,
  securityFeature,
  scriptsFeature,
  keyStatusFeature,
  feedFeature,
  healthFeature,
  serverPoolFeature,
  configurationFeature,
  notificationsFeature,
  paymentsFeature,
  discordFeature,
  alertsFeature,
] as const satisfies readonly Feature[];

/** Turns `A | B` into `A & B`. */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The services the features' entries build, all together. */
type FeatureServices = Intersection<
  ReturnType<Extract<(typeof FEATURES)[number], { services: unknown }>['services']>
>;
/** The services buildApp builds itself: whatever no feature does (so a service nobody builds fails to compile). */
type CrossCuttingServices = Omit<AppServices, keyof FeatureServices>;

/** Builds the whole server: cross-cutting plugins first, then every feature. Used by main and tests. */
export async function buildApp(base: AppBase, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // The services are filled in below, before any feature (or hook) reads them.
  const ctx = base as AppContext;
  const features: readonly Feature[] = FEATURES;
  const app = Fastify({
    logger: options.logger
      ? {
          ...(options.logger === true ? {} : options.logger),
          // Every line, whatever logged it, without webhook tokens (plugins/request-log.ts).
          stream: redactingDestination(options.logger === true ? undefined : options.logger.stream),
          serializers: { req: serializeRequest },
        }
      : false,
    // One line per request at debug (an admin's change at info): the minute's summary says the rest.
    logController: new RequestLog(),
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // What Fastify and Node refuse before any route or hook (a malformed URL, an unreadable request)
    // is answered as the app answers every error: `{error}` JSON with the security headers.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  ctx.bus.reportTo(app.log);
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
  registerActivitySummary(app, ctx, metrics);
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
  // The features' guards (the admin session's), after the origin check.
  for (const feature of features) feature.guard?.(app, ctx);
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
  // The cross-cutting services first, then each feature's (the features may use these).
  const crossCutting: CrossCuttingServices = { metrics, transport, publisher: transport.publisher };
  ctx.services = crossCutting as AppServices;
  for (const feature of features) Object.assign(ctx.services, feature.services?.(ctx, app));
  for (const feature of features) feature.jobs?.(app, ctx);
  await registerApiDocs(app);

  await app.register(documentedFeature('operations', probesRoutes), { ctx });
  for (const feature of features) {
    for (const routes of feature.routes ?? []) {
      await app.register(documentedFeature(feature.name, routes), { ctx });
    }
  }
  await app.register(documentedFeature('operations', metricsRoutes), { ctx });
  for (const feature of features) {
    for (const protocol of feature.protocols?.(ctx) ?? []) transport.registerProtocol(protocol);
  }
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
