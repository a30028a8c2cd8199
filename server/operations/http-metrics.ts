import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

/** The label of requests no route matched: one series, whatever the URL (never the raw path). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every answered request into `http_request_duration_seconds` by method, route pattern and
 * status. Socket upgrades are left out (their "request" lasts as long as the socket). Registered on
 * the root app beside the request timings (plugins/request-timings.ts), so it sees every route.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  if (!metrics.enabled) return;
  // Callback style: this runs on every response, the loader's hot path included.
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.ws) {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
}
