import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from '../../common/text.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Sends a route's refusal of unsafe text in its own form (status 400 is set): the loader
     * answers an executor with Lua, since it runs whatever comes back. JSON `{error}` when absent.
     */
    refuseUnsafeText?: (request: FastifyRequest, reply: FastifyReply, message: string) => void;
  }
}

type RequestPart = 'querystring' | 'params' | 'body';

/**
 * The 400's text, in the style of the schema refusals (plugins/errors.ts): `querystring key: …`,
 * `params id: …`, and body fields without a prefix (`code: …`, `events.0.payload.name: …`).
 */
export function unsafeTextError(part: RequestPart, path: string): string {
  if (part === 'body')
    return path === '' ? `body: ${UNSAFE_TEXT_MESSAGE}` : `${path}: ${UNSAFE_TEXT_MESSAGE}`;
  return path === '' ? `${part}: ${UNSAFE_TEXT_MESSAGE}` : `${part} ${path}: ${UNSAFE_TEXT_MESSAGE}`;
}

function refuse(request: FastifyRequest, reply: FastifyReply, message: string): void {
  reply.status(400);
  const routeRefusal = request.routeOptions.config?.refuseUnsafeText;
  if (routeRefusal) routeRefusal(request, reply, message);
  else reply.send({ error: message });
}

/**
 * Text is checked at the door: every string a route accepts (query, params and body, keys
 * included, however deep) is refused with a 400 naming the field when it holds U+0000 or a lone
 * surrogate. PostgreSQL cannot store U+0000 (the statement fails, and a batched write with it), and
 * no encoding can carry a lone surrogate. Global hooks, so a route added later (with a schema or
 * without, the socket upgrades included) cannot forget it; socket frames get the same check in
 * realtime/frames.ts and the feed socket.
 *
 * The query and params are read at onRequest, before any route's hooks (the rate limits that audit
 * the loader's hwid, the upgrade limits, session lookups); the body once parsed, at preValidation.
 * Register after the websocket plugin, whose onRequest hook marks an upgrade so that a refusal
 * releases its socket.
 */
export function registerTextCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const inQuery = findUnsafeText(request.query);
    if (inQuery !== undefined) return refuse(request, reply, unsafeTextError('querystring', inQuery));
    const inParams = findUnsafeText(request.params);
    if (inParams !== undefined) return refuse(request, reply, unsafeTextError('params', inParams));
    done();
  });
  app.addHook('preValidation', (request, reply, done) => {
    const inBody = findUnsafeText(request.body);
    if (inBody !== undefined) return refuse(request, reply, unsafeTextError('body', inBody));
    done();
  });
}
