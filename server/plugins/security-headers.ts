import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Browser features the app never uses, denied to its pages and to anything they might embed or have
 * injected. Copying a key is the one capability it needs (clipboard-write). Reading the clipboard is
 * left at the browser's default, which asks the user first. Only features Chromium recognises on
 * every system are named: it logs "Unrecognized feature" on every page for any other. So bluetooth
 * and web-share are left out (desktop Linux Chromium knows neither); both APIs act only on a user's
 * gesture and ask first, so the browser's defaults cover them.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'compute-pressure',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'interest-cohort',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'window-management',
  'xr-spatial-tracking',
];

export const PERMISSIONS_POLICY = [
  ...DENIED_FEATURES.map((feature) => `${feature}=()`),
  'clipboard-write=(self)',
].join(', ');

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

/** Every security header, by name: helmet's and the Permissions-Policy. The same on every response. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...helmetHeaders(),
  'Permissions-Policy': PERMISSIONS_POLICY,
});

/**
 * The security headers (helmet's CSP, HSTS, nosniff, frame and referrer policies…, and the
 * Permissions-Policy) on every response that goes through a route or the not-found handler; the
 * answers Fastify gives before routing carry them too (framework-errors.ts).
 * @fastify/helmet rebuilds them on each request, which was a sixth of the loader's CPU time; they
 * never change, so they are computed once here and copied onto each reply.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
