import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { type FastifyPluginAsyncZod, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '../../../common/api-error.ts';
import { KEY_PAGE_PATH, KEY_STATUS_TEXTS } from '../../../common/key-status.ts';
import { LoaderKeyResponseSchema, LoaderLuaSchema } from '../../../common/script-access.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { LoaderQuerySchema, parseLoaderQuery } from '../scripts/script-params.ts';
import { textField } from '../security/rate-limit-hooks.ts';
import { Loader, type LoaderAnswer } from './loader.service.ts';
import { loaderRefusalChunk, loaderStopChunk, refusalCode, scanlinePreamble } from './loader-response.ts';
import { LOADER_SIGNATURE_HEADER, type LoaderSigner, loadLoaderSigner } from './loader-signing.ts';
import { loaderBootstrapChunk } from './lua-bootstrap.ts';

/**
 * Lua for an executor (every plain GET, refusals included: 200), JSON `{error}` with the real status
 * for a caller whose Accept names application/json, Lua with the real status for HEAD.
 */
const refusal = {
  description: 'Refused: JSON `{error}` when Accept names application/json, else Lua that prints the reason',
  content: { 'application/json': { schema: ApiErrorSchema }, 'text/plain': { schema: LoaderLuaSchema } },
};
const loaderResponses = {
  200: { description: 'Lua to run', content: { 'text/plain': { schema: LoaderLuaSchema } } },
  '4xx': refusal,
  '5xx': refusal,
};

/**
 * The query and X-Hardware-Id are checked in the handler (a refusal must be Lua, not the schema's JSON
 * 400), so the API document is told about them here, for the document only.
 */
const documentLoaderRequest: NonNullable<FastifyContextConfig['swaggerTransform']> = (document) =>
  jsonSchemaTransform({
    ...document,
    schema: {
      ...document.schema,
      querystring: LoaderQuerySchema,
      headers: z.object({ 'x-hardware-id': z.string().max(200).optional() }),
    },
  });

const UNAVAILABLE_TEXT = 'The loader is unavailable right now: try again in a moment';

/** The X-Hardware-Id header, when the query has no hwid: same limits as the query field. */
function headerHardwareId(request: FastifyRequest): { hwid?: string; problem?: string } {
  const value = request.headers['x-hardware-id'];
  if (value === undefined) return {};
  if (typeof value !== 'string' || value.length === 0) return { problem: 'X-Hardware-Id must not be empty' };
  if (value.length > 200) return { problem: 'X-Hardware-Id must be at most 200 characters' };
  return { hwid: value };
}

/** True when the Accept header names application/json (a monitor or a tool, not an executor). */
function acceptsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  return accept.split(',').some((part) => part.split(';', 1)[0]?.trim().toLowerCase() === 'application/json');
}

/**
 * A refusal, in the form its caller can use. An executor (any plain GET) gets 200 and Lua that prints
 * the reason and stops with it, since many executors' HttpGet raise on a non-2xx status and would
 * show only "HTTP 403". A caller that is not an executor (Accept naming application/json, or HEAD)
 * gets the real 4xx/5xx: JSON `{error}` for the former. Every form carries X-Scanline-Refusal; the
 * executor's Lua, like every Lua answer, X-Scanline-Signature (loader-signing.ts).
 */
export function sendRefusal(
  signer: LoaderSigner,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
): void {
  reply
    .header('cache-control', 'no-store')
    .header('x-scanline-refusal', `${status} ${refusalCode(status, message)}`);
  if (request.method === 'HEAD') {
    reply.status(status).type('text/plain; charset=utf-8').send(loaderRefusalChunk(message));
  } else if (acceptsJson(request)) {
    reply.status(status).type('application/json; charset=utf-8').send({ error: message });
  } else {
    const chunk = loaderStopChunk(message);
    reply
      .status(200)
      .type('text/plain; charset=utf-8')
      .header(LOADER_SIGNATURE_HEADER, signer.signText(chunk))
      .send(chunk);
  }
}

/** The device-limit refusal, telling the buyer where they reset their devices: this site's My key page. */
function deviceLimitWithReset(message: string, site: string): string {
  return `${message}. ${KEY_STATUS_TEXTS.resetHint} ${site}${KEY_PAGE_PATH}`;
}

function sendAnswer(
  signer: LoaderSigner,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: LoaderAnswer,
  autoJoinMaxAgeS: number,
): void {
  switch (answer.kind) {
    case 'script': {
      // One line before the script: where it was loaded from and which key opened it.
      const site = `${request.protocol}://${request.host}`;
      const { keyId } = answer;
      const { bytes, signature } = signer.signedScript(answer.body, `${keyId} ${site}`, () =>
        scanlinePreamble({ site, keyId, autoJoinMaxAgeS }),
      );
      reply.status(200).header(LOADER_SIGNATURE_HEADER, signature).send(bytes);
      return;
    }
    case 'bootstrap': {
      // The same call again, as the executor made it (proxy-aware protocol and host), plus &hwid=.
      const chunk = loaderBootstrapChunk(`${request.protocol}://${request.host}${request.url}`, answer.key);
      reply.status(200).header(LOADER_SIGNATURE_HEADER, signer.sign(chunk)).send(chunk);
      return;
    }
    case 'refused': {
      const site = `${request.protocol}://${request.host}`;
      const message =
        refusalCode(answer.status, answer.message) === 'device-limit'
          ? deviceLimitWithReset(answer.message, site)
          : answer.message;
      sendRefusal(signer, request, reply, answer.status, message);
      return;
    }
  }
}

/**
 * GET /api/script/loader?script=NAME[&key=KEY][&hwid=ID][&nonce=N&sig=HEX]: what
 * `loadstring(game:HttpGet(url))()` runs. Every answer to an executor, refusals included, is plain Lua
 * with status 200, because the executor runs whatever comes back (a refusal prints its reason and
 * stops with it; see sendRefusal). A served script starts with one line that tells it the site, the
 * key's number and AUTO_JOIN_MAX_AGE_S (scanlinePreamble), never the key or the device id. The
 * handler is synchronous when the answer is (warm caches), so
 * a served premium call costs no await.
 */
export const loaderRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const loader = new Loader(ctx, app.pendingWrites);
  const autoJoinMaxAgeS = ctx.config.AUTO_JOIN_MAX_AGE_S;
  app.addHook('onClose', async () => loader.close());
  const signer = await loadLoaderSigner(ctx.db, ctx.now());
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
    sendRefusal(signer, request, reply, status, message);

  // An executor runs whatever comes back, so even a refusal for too many calls, or for unsafe text,
  // is Lua with status 200 (the real status in X-Scanline-Refusal); see sendRefusal.
  const rateLimit = app.rateLimitHooks('loader', {
    keyOf: (request) => textField(request.query, 'key'),
    refuse: (request, reply, message) => refuse(request, reply, 429, message),
  });
  const refuseUnsafeText = (request: FastifyRequest, reply: FastifyReply, message: string) =>
    refuse(request, reply, 400, `Bad loader request: ${message}`);

  app.get(
    '/api/script/loader-key',
    {
      schema: {
        summary: "The public key of the loader answers' Ed25519 signatures (X-Scanline-Signature)",
        response: responses({ 200: LoaderKeyResponseSchema }),
      },
    },
    async () => ({
      algorithm: 'Ed25519' as const,
      publicKey: signer.publicKey,
      header: 'X-Scanline-Signature' as const,
    }),
  );

  app.get(
    '/api/script/loader',
    {
      schema: { response: loaderResponses },
      preHandler: rateLimit,
      config: { refuseUnsafeText, swaggerTransform: documentLoaderRequest },
    },
    (request, reply) => {
      reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
      // Validated here rather than by the route schema, whose refusal would be JSON.
      const query = parseLoaderQuery(request.query);
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
        refuse(request, reply, 400, `Bad loader request: ${problem}`);
        return;
      }
      let hwid = query.data.hwid;
      if (hwid === undefined) {
        const header = headerHardwareId(request);
        if (header.problem !== undefined) {
          refuse(request, reply, 400, `Bad loader request: ${header.problem}`);
          return;
        }
        hwid = header.hwid;
      }
      const answer = loader.load({
        ...query.data,
        hwid,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (!(answer instanceof Promise)) {
        sendAnswer(signer, request, reply, answer, autoJoinMaxAgeS);
        return;
      }
      return answer.then(
        (settled) => sendAnswer(signer, request, reply, settled, autoJoinMaxAgeS),
        (error: unknown) => {
          request.log.error({ err: error }, 'loader failed');
          refuse(request, reply, 503, UNAVAILABLE_TEXT);
        },
      );
    },
  );
};
