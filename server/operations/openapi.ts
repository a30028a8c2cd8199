import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../../common/auth.ts';
import { isGuardedRoute } from '../features/auth/admin-guard.ts';
import { guardsOf } from '../plugins/route-guards.ts';
import { API_TAGS } from './feature-tags.ts';
import { socketFrameSchemas, socketPaths } from './socket-frames.ts';

/** Where the document and the interactive reference are served. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** The routes that take a script key (`?key=`; FREE scripts and the FREE feed need none). */
const SCRIPT_KEY_ROUTES = new Set(['/api/script/loader', '/api/script/feed']);

const SECURITY_SCHEMES = {
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The admin session: POST /api/admin/login sets it (HttpOnly, SameSite=Strict, 24 h)',
  },
  botToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A bot's own botToken (from POST /api/bot/enroll), or the shared bot token (BOT_TOKEN, or the one written to BOT_TOKEN_FILE on first start): it enrolls, and speaks for bots not enrolled while BOT_TOKEN_LEGACY is on",
  },
  botTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The bot token on a socket upgrade from an executor that cannot set headers',
  },
  scriptKey: {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: 'A script key (redeemed from a code, or issued by the admin)',
  },
} as const;

/** The app's version, from the package.json above this file (server/ in a checkout, dist/server/ built). */
function appVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'scanline' && pkg.version) return pkg.version;
    } catch {
      // Not there: the next level up.
    }
  }
  return '0.0.0';
}

/**
 * How a route is authenticated, from its guard: the admin guard's routes (every /api/admin/* but
 * login) and routes whose hook is marked as the admin session's take the cookie; a bot-token hook,
 * the bearer token; the loader and feed, an optional script key; everything else, nothing.
 */
function securityOf(route: RouteOptions): Record<string, string[]>[] {
  const guards = guardsOf([route.onRequest, route.preHandler].flat());
  if (isGuardedRoute(route.url) || guards.includes('adminSession')) return [{ adminSession: [] }];
  if (guards.includes('botToken')) return [{ botToken: [] }];
  if (SCRIPT_KEY_ROUTES.has(route.url)) return [{}, { scriptKey: [] }];
  return [];
}

/**
 * The OpenAPI 3.1 document at /api/openapi.json, generated from the routes' zod schemas, and the
 * interactive reference at /api/docs (swagger-ui's own files, served here: no CDN). Register before
 * the features, whose routes it collects as they are added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scanline',
        version: appVersion(),
        description:
          'Licensing, script distribution and fleet monitoring. Refusals and failures answer `{error}` ' +
          '(ApiError). The sockets /ws and /ws/feed are described under `realtime`, their frames as schemas.',
      },
      tags: API_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => {
      const object = jsonSchemaTransformObject(document) as ReturnType<typeof jsonSchemaTransformObject> & {
        paths?: Record<string, unknown>;
        components?: { schemas?: Record<string, unknown> };
      };
      return {
        ...object,
        paths: { ...object.paths, ...socketPaths() },
        components: {
          ...object.components,
          schemas: { ...object.components?.schemas, ...socketFrameSchemas() },
        },
      } as ReturnType<typeof jsonSchemaTransformObject>;
    },
  });

  // Security follows from each route's guard (see securityOf); a route may still say its own.
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide || route.schema?.security) return;
    const security = securityOf(route);
    if (security.length > 0) route.schema = { ...route.schema, security };
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());

  // Public, like the document: it describes the API, it holds no data, and every call it lists keeps
  // its own guard ("Try it out" on an admin call needs the session cookie like any other page).
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
    // Its scripts and styles are its own files, so the app's CSP holds; no online validator badge.
    validatorUrl: false,
  });
}
