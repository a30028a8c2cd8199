import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FeatureOptions } from '../context.ts';
import { secretsEqual } from '../features/auth/secret.ts';
import { errorResponses } from '../plugins/responses.ts';
import { METRICS_CONTENT_TYPE } from './metrics.ts';
import { scrapeSources } from './metrics-sources.ts';

export const METRICS_TEXTS = {
  disabled: 'Metrics are switched off on this server (METRICS_ENABLED=false)',
  tokenRequired: 'A metrics token is required: send Authorization: Bearer <METRICS_TOKEN>',
  loopbackOnly: 'Metrics are served to this machine only: set METRICS_TOKEN to scrape from elsewhere',
} as const;

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

/** The Prometheus text exposition format (version 0.0.4). */
const MetricsTextSchema = z.string().describe('Prometheus text exposition format, version 0.0.4');

/**
 * GET /metrics for Prometheus. With METRICS_TOKEN set, `Authorization: Bearer <token>` is required
 * (401 otherwise); unset, only loopback clients may read it (403 otherwise): the figures name routes
 * and counts an outsider has no business seeing. Needs no admin session, is not rate-limited (a
 * scrape every few seconds is the point) and is logged at warn only.
 */
export const metricsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const { metrics } = ctx.services;
  const token = ctx.config.METRICS_TOKEN;
  metrics.readFrom(scrapeSources(ctx, app));

  app.get(
    '/metrics',
    {
      logLevel: 'warn',
      schema: {
        response: {
          200: { content: { [METRICS_CONTENT_TYPE]: { schema: MetricsTextSchema } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      if (!metrics.enabled) return reply.status(404).send({ error: METRICS_TEXTS.disabled });
      if (token !== undefined) {
        const given = bearerTokenOf(request);
        if (given === undefined || !secretsEqual(given, token)) {
          return reply
            .status(401)
            .header('www-authenticate', 'Bearer realm="metrics"')
            .send({ error: METRICS_TEXTS.tokenRequired });
        }
      } else if (!isLoopback(request.ip)) {
        return reply.status(403).send({ error: METRICS_TEXTS.loopbackOnly });
      }
      const text = await metrics.text();
      return reply.header('cache-control', 'no-store').type(METRICS_CONTENT_TYPE).send(text);
    },
  );
};
