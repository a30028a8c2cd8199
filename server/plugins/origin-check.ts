import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../common/auth.ts';
import { SOCKET_PATH } from '../../common/realtime.ts';
import type { AppContext } from '../context.ts';

/** Methods that change nothing: not checked (another page cannot read their answers anyway). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The routes that take multipart/form-data (file uploads); every other body is JSON. */
const MULTIPART_ROUTES = new Set(['/api/admin/scripts/upload']);

/** `scheme://host[:port]` of a URL as browsers write it in Origin, or null (unparsable, opaque). */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

interface Refusal {
  statusCode: 403 | 415;
  error: string;
}

/**
 * Where the request comes from, as the browser says: `Origin`, else the origin of `Referer` (older
 * browsers send only that). Undefined when neither is there.
 */
function claimedOrigin(request: FastifyRequest): { shown: string; origin: string | null } | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) return { shown: origin, origin: originOf(origin) };
  const referer = request.headers.referer;
  if (referer !== undefined) {
    const fromReferer = originOf(referer);
    return { shown: fromReferer ?? referer, origin: fromReferer };
  }
  return undefined;
}

/**
 * Same-site request forgery guard. SameSite=Strict keeps the session cookie from other sites, but a
 * page on another port of the same host is the same site and gets it sent along. So:
 *
 * - every state-changing `/api/admin/*` call (login and logout included) and the admin socket
 *   upgrade (`/ws` with a session cookie) must say it comes from the app's own origin (the request's
 *   Host with its scheme; behind a proxy trusted through TRUST_PROXY, X-Forwarded-Host and -Proto) or
 *   one in ALLOWED_ORIGINS. Browsers send `Origin` on every such fetch and socket; one with neither
 *   `Origin` nor `Referer` is not a browser page of this app and is refused too (403).
 * - a body must be JSON (415 otherwise), multipart only on the upload route: a form or `text/plain`
 *   post is what a page can send anywhere without asking, so no route takes one.
 *
 * The executor-facing calls (redeem, challenge, the loader, bots) carry no cookie and come from no
 * browser: their origin is not checked. Runs before the admin guard, so a forged call never reaches
 * a session lookup or a body parser.
 */
export function registerOriginCheck(app: FastifyInstance, ctx: AppContext): void {
  const allowed = new Set(ctx.config.ALLOWED_ORIGINS);

  function checkOrigin(request: FastifyRequest, what: string): Refusal | undefined {
    const claimed = claimedOrigin(request);
    if (!claimed) {
      return {
        statusCode: 403,
        error: `Origin header missing: ${what} accepted only from this app's own pages, which always send it`,
      };
    }
    const own = originOf(`${request.protocol}://${request.host}`);
    if (claimed.origin !== null && (claimed.origin === own || allowed.has(claimed.origin))) return undefined;
    // At debug: anyone can send these by the thousand; the minute's summary counts them as 4xx.
    request.log.debug({ origin: claimed.shown, own }, 'refused a request from another origin');
    return {
      statusCode: 403,
      error: `Origin not allowed: ${claimed.shown} (${what} accepted only from this app's own pages)`,
    };
  }

  function check(request: FastifyRequest): Refusal | undefined {
    const route = request.routeOptions.url;
    if (route === undefined) return undefined; // a 404: nothing runs
    if (SAFE_METHODS.has(request.method)) {
      const adminSocket = route === SOCKET_PATH && request.cookies[SESSION_COOKIE] !== undefined;
      return adminSocket ? checkOrigin(request, 'the admin socket is') : undefined;
    }
    if (route.startsWith('/api/admin/')) {
      const refused = checkOrigin(request, 'admin changes are');
      if (refused) return refused;
    }
    const contentType = request.headers['content-type'];
    if (contentType === undefined) return undefined;
    const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
    if (mediaType === 'application/json') return undefined;
    if (mediaType === 'multipart/form-data' && MULTIPART_ROUTES.has(route)) return undefined;
    return { statusCode: 415, error: `Content-Type must be application/json, not ${mediaType || 'empty'}` };
  }

  // Callback style and synchronous: this runs on every request, the loader's hot path included.
  app.addHook('onRequest', (request, reply, done) => {
    const refused = check(request);
    if (refused) {
      reply.status(refused.statusCode).send({ error: refused.error });
      return;
    }
    done();
  });
}
