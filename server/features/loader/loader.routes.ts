import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';
import { LoaderQuerySchema } from '../scripts/script-params.ts';
import { textField } from '../security/rate-limit-hooks.ts';
import { Loader, type LoaderAnswer } from './loader.service.ts';
import { loaderRefusalChunk } from './loader-response.ts';
import { loaderBootstrapChunk } from './lua-bootstrap.ts';

const UNAVAILABLE_TEXT = 'The loader is unavailable right now: try again in a moment';

/** The X-Hardware-Id header, when the query has no hwid: same limits as the query field. */
function headerHardwareId(request: FastifyRequest): { hwid?: string; problem?: string } {
  const value = request.headers['x-hardware-id'];
  if (value === undefined) return {};
  if (typeof value !== 'string' || value.length === 0) return { problem: 'X-Hardware-Id must not be empty' };
  if (value.length > 200) return { problem: 'X-Hardware-Id must be at most 200 characters' };
  return { hwid: value };
}

function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: LoaderAnswer): void {
  switch (answer.kind) {
    case 'script':
      reply.status(200).send(answer.body);
      return;
    case 'bootstrap':
      // The same call again, as the executor made it (proxy-aware protocol and host), plus &hwid=.
      reply.status(200).send(loaderBootstrapChunk(`${request.protocol}://${request.host}${request.url}`));
      return;
    case 'refused':
      reply.status(answer.status).send(loaderRefusalChunk(answer.message));
      return;
  }
}

/**
 * GET /api/script/loader?script=NAME[&key=KEY][&hwid=ID][&nonce=N&sig=HEX]: what
 * `loadstring(game:HttpGet(url))()` runs. Every answer, refusals included, is plain Lua, because the
 * executor runs whatever comes back. The handler is synchronous when the answer is (warm caches), so
 * a served premium call costs no await.
 */
export const loaderRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const loader = new Loader(ctx, app.pendingWrites);
  app.addHook('onClose', async () => loader.close());

  const rateLimit = app.rateLimitHooks('loader', {
    keyOf: (request) => textField(request.query, 'key'),
    // An executor runs whatever comes back, so even a refusal for too many calls is Lua.
    refuse: (reply, message) => {
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(loaderRefusalChunk(message));
    },
  });

  const refuseUnsafeText = (reply: FastifyReply, message: string) => {
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(loaderRefusalChunk(`Bad loader request: ${message}`));
  };

  app.get('/api/script/loader', { preHandler: rateLimit, config: { refuseUnsafeText } }, (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    // Validated here rather than by the route schema, whose refusal would be JSON.
    const query = LoaderQuerySchema.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      const field = String(issue?.path[0] ?? 'script');
      const given = (request.query as Record<string, unknown> | undefined)?.[field];
      const problem =
        given === undefined
          ? `${field} is required`
          : Array.isArray(given)
            ? `${field} must be given once`
            : `${field}: ${issue?.message ?? 'is invalid'}`;
      reply.status(400).send(loaderRefusalChunk(`Bad loader request: ${problem}`));
      return;
    }
    let hwid = query.data.hwid;
    if (hwid === undefined) {
      const header = headerHardwareId(request);
      if (header.problem !== undefined) {
        reply.status(400).send(loaderRefusalChunk(`Bad loader request: ${header.problem}`));
        return;
      }
      hwid = header.hwid;
    }
    const answer = loader.load({ ...query.data, hwid, ip: request.ip });
    if (!(answer instanceof Promise)) {
      sendAnswer(request, reply, answer);
      return;
    }
    return answer.then(
      (settled) => sendAnswer(request, reply, settled),
      (error: unknown) => {
        request.log.error({ err: error }, 'loader failed');
        reply.status(503).send(loaderRefusalChunk(UNAVAILABLE_TEXT));
      },
    );
  });
};
