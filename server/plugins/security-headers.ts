import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** The headers helmet chooses for our policy, worked out once: they are the same on every response. */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = String(value);
    },
    removeHeader() {},
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // Only the app's own origin. CSP3 makes 'self' match the same host's ws: and wss: too (and
        // https:/wss: from an http: page), so the admin socket needs no scheme of its own; Chromium
        // and Firefox do this, Safari since WebKit's 2022 fix. (`ws: wss:` would let a script
        // injected into a page open a socket to any host.)
        connectSrc: ["'self'"],
        // Served over plain HTTP on a LAN by default; a TLS proxy in front can add this itself.
        upgradeInsecureRequests: null,
      },
    },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Helmet's security headers (CSP, HSTS, nosniff, frame and referrer policies…) on every response.
 * @fastify/helmet rebuilds them on each request, which was a sixth of the loader's CPU time; they
 * never change, so they are computed once here and copied onto each reply.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
