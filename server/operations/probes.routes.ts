import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LivenessSchema, ReadinessSchema } from '../../common/operations.ts';
import type { FeatureOptions } from '../context.ts';
import { responses } from '../plugins/responses.ts';
import { EventLoopLag } from './event-loop-lag.ts';
import { Readiness } from './readiness.ts';

/**
 * What a probe route is: no session (not under /api/admin), no rate limit, no request log line
 * (a load balancer asks every few seconds; `warn` keeps only its failures), and no place in the
 * health report's request timings.
 */
const PROBE = { logLevel: 'warn', config: { skipRequestTiming: true } } as const;

/**
 * The load balancer's and the orchestrator's probes. /healthz: the process answers (restart it if
 * not). /readyz: it can serve (send it traffic only if so); 503 names what failed.
 */
export const probesRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const lag = new EventLoopLag();
  const readiness = new Readiness(ctx, app.log);
  ctx.services.readiness = readiness;
  app.addHook('onClose', async () => lag.stop());

  app.get('/healthz', { ...PROBE, schema: { response: responses({ 200: LivenessSchema }) } }, async () => ({
    status: 'ok' as const,
    eventLoopLagMs: lag.lagMs,
    uptimeS: Math.round(process.uptime()),
  }));

  app.get(
    '/readyz',
    { ...PROBE, schema: { response: responses({ 200: ReadinessSchema, 503: ReadinessSchema }) } },
    async (_request, reply) => {
      const report = await readiness.check();
      return reply.status(report.status === 'ready' ? 200 : 503).send(report);
    },
  );
};
