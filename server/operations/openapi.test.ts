import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../common/auth.ts';
import { ServerMessageSchemas } from '../../common/realtime.ts';
import { useTestApp } from '../test/helper.ts';
import { API_DOCS_PREFIX, OPENAPI_PATH } from './openapi.ts';

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { anyOf?: { properties: { type: { const: string } } }[] }> };
  components_securitySchemes?: never;
}

/** The socket upgrade routes: described through the socket paths and frame schemas, not a route schema. */
const SOCKET_ROUTES = new Set(['/ws', '/ws/feed']);

/**
 * Routes the document does not list, by rule; every other route, API or not (/healthz, /metrics…),
 * must be in it with its answers:
 * - HEAD twins Fastify adds to every GET (exposeHeadRoutes): documented through their GET;
 * - the docs' own routes (the document, swagger-ui's page and its static files);
 * - static files of the built web app (@fastify/static registers one route per file, each named by its
 *   file name with an extension; none here, as the tests run without a build);
 * - the socket upgrades: described by the socket paths and frame schemas, checked in their own test.
 */
function isExempt(route: { method: string; url: string }): boolean {
  return (
    route.method === 'HEAD' ||
    route.url === OPENAPI_PATH ||
    route.url === API_DOCS_PREFIX ||
    route.url.startsWith(`${API_DOCS_PREFIX}/`) ||
    (!route.url.startsWith('/api/') && /\.[A-Za-z0-9]+$/.test(route.url)) ||
    SOCKET_ROUTES.has(route.url)
  );
}

/** `/api/x/:id` as OpenAPI writes it: `/api/x/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What is wrong with a route's entry in the document, or undefined when it is described in full. */
function problemOf(document: Document, method: string, url: string): string | undefined {
  const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
  if (!operation) return 'missing from the document';
  const responses = operation.responses ?? {};
  const answers = Object.entries(responses).filter(([status]) => /^2/.test(status));
  // A route that answers with a redirect (an order's checkout link) documents its 3xx instead.
  const redirects = Object.keys(responses).filter((status) => /^3/.test(status));
  if (!answers.some(([, answer]) => answer.content !== undefined) && redirects.length === 0) {
    return 'no 2xx response schema';
  }
  for (const range of ['4XX', '5XX']) {
    if (!responses[range]?.content) return `no ${range} {error} schema`;
  }
  return undefined;
}

describe('the API document', () => {
  const t = useTestApp('sqlite');
  let document: Document;
  const load = async () => {
    const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
    return document;
  };

  it('describes every API route with its 2xx answers and the {error} shape', async () => {
    await load();
    const problems = t.app.routeTable
      .filter((route) => !isExempt(route))
      .map((route) => ({ route, problem: problemOf(document, route.method, route.url) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ route, problem }) => `${route.method} ${route.url}: ${problem}`);
    expect(problems, `routes not fully described:\n${problems.join('\n')}`).toEqual([]);
  });

  it('describes both socket upgrades, and nothing the app does not serve', async () => {
    await load();
    const sockets = t.app.routeTable.filter((r) => r.method === 'GET' && SOCKET_ROUTES.has(r.url));
    expect(sockets.map((r) => r.url).sort()).toEqual([...SOCKET_ROUTES].sort());
    for (const url of SOCKET_ROUTES) expect(document.paths[url]?.get?.responses?.['101']).toBeDefined();
    const served = new Set(t.app.routeTable.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(described.filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    await load();
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("tags each route with its feature and names how it authenticates from the route's guard", async () => {
    const doc = (await load()) as Document & {
      components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
    };
    expect(doc.components.securitySchemes.adminSession).toMatchObject({ in: 'cookie', name: SESSION_COOKIE });
    expect(doc.components.securitySchemes.botToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.scriptKey).toMatchObject({ in: 'query', name: 'key' });

    const operation = (method: string, path: string) => doc.paths[path]?.[method];
    expect(operation('get', '/api/admin/dashboard/stats')).toMatchObject({
      tags: ['dashboard'],
      security: [{ adminSession: [] }],
    });
    // An admin read outside /api/admin, guarded by a hook of its own.
    expect(operation('get', '/api/server-pool/stats')).toMatchObject({
      tags: ['server-pool'],
      security: [{ adminSession: [] }],
    });
    expect(operation('get', '/readyz')).toMatchObject({ tags: ['operations'] });
    expect(operation('post', '/api/bot/events')).toMatchObject({
      tags: ['fleet'],
      security: [{ botToken: [] }],
    });
    expect(operation('get', '/api/script/loader')).toMatchObject({
      tags: ['loader'],
      security: [{}, { scriptKey: [] }],
    });
    // Sign-in and the public pages need nothing.
    expect(operation('post', '/api/admin/login')?.security).toBeUndefined();
    expect(operation('get', '/api/public/purchase-info')).toMatchObject({ tags: ['public'] });
    expect(operation('get', '/api/public/purchase-info')?.security).toBeUndefined();
    // The loader answers Lua to executors and JSON {error} to a caller asking for JSON; its query,
    // checked in the handler, is described all the same (`key` through the scriptKey scheme).
    const loader = operation('get', '/api/script/loader') as Operation & {
      parameters?: { name: string; in: string; required?: boolean }[];
    };
    expect(loader.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'script', in: 'query', required: true }),
        expect.objectContaining({ name: 'x-hardware-id', in: 'header' }),
      ]),
    );
    expect(Object.keys(loader?.responses?.['200']?.content ?? {})).toEqual(['text/plain']);
    expect(Object.keys(loader?.responses?.['4XX']?.content ?? {}).sort()).toEqual([
      'application/json',
      'text/plain',
    ]);
  });

  it('holds every socket frame the server sends a dashboard, from the same schemas the client checks', async () => {
    await load();
    const frames = document.components.schemas.AdminSocketServerFrame?.anyOf ?? [];
    expect(frames.map((frame) => frame.properties.type.const).sort()).toEqual(
      Object.keys(ServerMessageSchemas).sort(),
    );
    for (const name of [
      'AdminSocketClientFrame',
      'BotSocketClientFrame',
      'BotSocketServerFrame',
      'FeedSocketServerFrame',
    ]) {
      expect(document.components.schemas[name], name).toBeDefined();
    }
  });
});

describe('the API reference at /api/docs', () => {
  const t = useTestApp('sqlite');

  it('is served from the app itself, without a session, under the CSP of every other page', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    // Every script and stylesheet it loads is one of its own files, on this origin.
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source).not.toMatch(/^(https?:)?\/\//);
      const file = await t.app.inject({
        method: 'GET',
        url: new URL(source, `http://x${API_DOCS_PREFIX}/`).pathname,
      });
      expect(file.statusCode, source).toBe(200);
    }
    const landing = await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
    expect(page.headers['content-security-policy']).toBe(landing.headers['content-security-policy']);
  });
});
