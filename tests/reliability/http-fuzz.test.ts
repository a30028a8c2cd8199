import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BotEventsRequestSchema, BotMessageSchemas, GhostIdSchema } from '../../common/fleet.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../server/test/helper.ts';
import {
  changedTables,
  type Fingerprint,
  fingerprint,
  flushQueuedWrites,
  listTables,
} from './fingerprint.ts';
import {
  arbitraryFor,
  forbiddenInDeclared,
  hostileAny,
  hostileString,
  type JsonSchema,
  jsonSchemaOf,
  KNOWN_VALUES,
  nulInDeclared,
  percentEncode,
  toJsonText,
  toQueryString,
  toText,
} from './hostile.ts';
import { BOT_HEADERS, FUZZ_ENV, RUNS, SEED, seed } from './setup.ts';

/**
 * A 503 that is a route's contract here, not a failure: the fuzz app has no BTCPay connection, and
 * the webhook then answers 503 so that BTCPay sends the delivery again (it drops a 4xx for good;
 * docs/payments.md); nor a Discord public key, and the interactions endpoint then says it is not set
 * up yet (503 with Retry-After; docs/discord.md).
 */
const RETRY_BY_CONTRACT = new Set(['POST /api/payments/btcpay/webhook', 'POST /api/discord/interactions']);

function retriesByContract(route: string, status: number): boolean {
  return status === 503 && RETRY_BY_CONTRACT.has(route);
}

/*
 * Property-based fuzz of every HTTP route, built from the route's own zod schemas (body,
 * querystring, params) as Fastify registered them. Each call carries the admin session, the app's
 * Origin and a valid bot token, so it reaches the route's own checks. It holds when no answer is a
 * 5xx and a refused call (4xx) left every table but audit_logs exactly as it was.
 */

interface RouteSpec {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
  websocket: boolean;
}

// Every route's schema as registered: an onRoute hook on each Fastify instance, added before any
// route (buildApp's own onRoute hook records only method and URL).
const captured = vi.hoisted(() => ({ routes: new WeakMap<object, RouteSpec[]>() }));
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const original = mod.default as unknown as (options?: unknown) => FastifyInstance;
  const wrapped = (options?: unknown) => {
    const app = original(options);
    const routes: RouteSpec[] = [];
    captured.routes.set(app, routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        routes.push({
          method,
          url: route.url,
          schema: route.schema as RouteSpec['schema'],
          websocket: Boolean((route as { websocket?: boolean }).websocket),
        });
      }
    });
    return app;
  };
  Object.assign(wrapped, original);
  return { ...mod, default: wrapped, fastify: wrapped };
});

type Call = {
  params: Record<string, unknown>;
  query: unknown;
  body: unknown;
  contentType: string;
  multipart?: { filename: string; content: string };
};

const JSON_TYPE = 'application/json';

/**
 * What a route's body is, for the fuzz: its schema, except that `POST /api/bot/events` carries
 * events whose payload (`unknown` in the batch schema) follows that event type's own schema.
 */
function bodySchemaOf(route: RouteSpec): JsonSchema | undefined {
  if (route.url === '/api/bot/events') {
    const batch = jsonSchemaOf(BotEventsRequestSchema);
    return {
      ...batch,
      properties: {
        ghostId: jsonSchemaOf(GhostIdSchema),
        events: {
          type: 'array',
          minItems: 1,
          maxItems: 4,
          items: {
            anyOf: Object.entries(BotMessageSchemas).map(([type, schema]) => ({
              type: 'object',
              required: ['type', 'payload'],
              properties: {
                type: { const: type },
                payload: jsonSchemaOf(schema),
                id: { type: 'string', maxLength: 100 },
              },
            })),
          },
        },
      },
    };
  }
  return route.schema?.body ? jsonSchemaOf(route.schema.body) : undefined;
}

/**
 * A query or path value as the server reads it: percent-decoded, or the raw text when the bytes do
 * not decode (a lone surrogate travels as bytes no UTF-8 decoder accepts, and then no U+0000 arrives).
 */
function asReceived(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asReceived);
  const encoded = percentEncode(toText(value));
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** Where a call put U+0000 (or, in a body, a lone surrogate) into a field the route declares. */
function forbiddenTextIn(route: RouteSpec, call: Call): string | undefined {
  const body = bodySchemaOf(route);
  if (body && !call.multipart && forbiddenInDeclared(call.body, body)) return 'body';
  if (
    route.schema?.querystring &&
    call.query &&
    typeof call.query === 'object' &&
    !Array.isArray(call.query)
  ) {
    const received = Object.fromEntries(Object.entries(call.query).map(([k, v]) => [k, asReceived(v)]));
    if (nulInDeclared(received, jsonSchemaOf(route.schema.querystring))) return 'query';
  }
  for (const value of Object.values(call.params)) {
    const received = asReceived(value);
    if (typeof received === 'string' && received.includes('\u0000')) return 'path';
  }
  return undefined;
}

/** The calls fast-check draws for one route. */
function callsFor(route: RouteSpec): fc.Arbitrary<Call> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1] as string);
  const paramsSchema = jsonSchemaOf(route.schema?.params);
  const params = fc.record(
    Object.fromEntries(
      paramNames.map((name) => {
        const declared = paramsSchema.properties?.[name];
        const arb = declared
          ? arbitraryFor(declared)
          : fc.oneof(fc.constantFrom(...KNOWN_VALUES), hostileString, hostileAny);
        return [name, arb];
      }),
    ),
  );
  const query = route.schema?.querystring
    ? arbitraryFor(jsonSchemaOf(route.schema.querystring))
    : fc.oneof(fc.constant(undefined), fc.dictionary(hostileString, hostileString, { maxKeys: 3 }));
  const hasBody = !['GET', 'HEAD'].includes(route.method);
  const body = !hasBody
    ? fc.constant(undefined)
    : bodySchemaOf(route)
      ? arbitraryFor(bodySchemaOf(route) as JsonSchema)
      : fc.oneof(fc.constant(undefined), hostileAny, fc.jsonValue({ maxDepth: 2 }));
  const contentType = hasBody
    ? fc.oneof(
        { weight: 12, arbitrary: fc.constant(JSON_TYPE) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
          ),
        },
      )
    : fc.constant(JSON_TYPE);
  const isUpload = route.url.endsWith('/upload');
  const multipart = isUpload
    ? fc.option(
        fc.record({
          filename: fc.oneof(
            hostileString,
            fc.constantFrom('a.lua', '../a.lua', 'a\u0000.lua', '\ud800.lua'),
          ),
          content: fc.oneof(fc.string({ maxLength: 200 }), hostileString),
        }),
        { nil: undefined, freq: 2 },
      )
    : fc.constant(undefined);
  return fc.record(
    { params, query, body, contentType, multipart },
    { requiredKeys: ['params', 'query', 'body', 'contentType'] },
  ) as fc.Arbitrary<Call>;
}

function multipartBody(filename: string, content: string): { payload: Buffer; contentType: string } {
  const boundary = '----reliability-boundary';
  const text =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload: Buffer.from(text, 'utf8'), contentType: `multipart/form-data; boundary=${boundary}` };
}

function requestOf(route: RouteSpec, call: Call, cookie: string, run: number): InjectOptions {
  const url =
    route.url.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => percentEncode(toText(call.params[name]))) +
    toQueryString(call.query);
  const headers: Record<string, string> = { cookie, ...BOT_HEADERS };
  const options: InjectOptions = { method: route.method as InjectOptions['method'], url, headers };
  // Failed logins lock their address out: the fuzzed logins come from addresses of their own, so the
  // suite's admin (127.0.0.1) can still sign in again.
  if (route.url === '/api/admin/login')
    options.remoteAddress = `10.77.${Math.floor(run / 250) % 250}.${run % 250}`;
  if (call.multipart) {
    const { payload, contentType } = multipartBody(call.multipart.filename, call.multipart.content);
    headers['content-type'] = contentType;
    options.payload = payload;
  } else if (call.body !== undefined) {
    headers['content-type'] = call.contentType;
    options.payload = toJsonText(call.body);
  }
  return options;
}

const clip = (text: string, max = 300) => {
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);
  return shown;
};

interface Failure {
  kind: string;
  run: number;
  request: string;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: fuzz of every HTTP route (seed ${SEED}, ${RUNS} runs a route)`, () => {
    let t: TestApp;
    let cookie = '';
    let tables: string[] = [];
    let routes: RouteSpec[] = [];
    let current: Fingerprint | undefined;
    let tried = 0;
    const statuses = new Map<string, Map<number, number>>();

    beforeAll(async () => {
      t = await buildTestApp(dialect, FUZZ_ENV);
      cookie = await t.adminCookie();
      const seeded = await seed(t, cookie);
      KNOWN_VALUES.push(
        seeded.scriptKey,
        seeded.freeScriptKey,
        seeded.code,
        seeded.ghostId,
        'reliability.lua',
        'seed-job-1',
      );
      tables = await listTables(t);
      routes = (captured.routes.get(t.app) ?? []).filter((r) => r.method !== 'HEAD');
    });
    afterAll(async () => {
      const lines = [...statuses].map(
        ([n, c]) => `  ${n}: ${[...c].map(([st, k]) => `${st}x${k}`).join(' ')}`,
      );
      console.log(
        `${dialect}: HTTP fuzz sent ${tried} calls to ${routes.length} routes (status x count)\n${lines.join('\n')}`,
      );
      await t?.close();
    });

    it('sees every route the app registered, with its schemas', () => {
      const registered = t.app.routeTable
        .filter((r) => r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url}`);
      expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(registered.sort());
      expect(routes.filter((r) => r.schema?.body || r.schema?.querystring).length).toBeGreaterThan(20);
    });

    // One test per route, named after it; the list is the app's own (collected when the app is built).
    it.for(routeNames(dialect))('%s', async (name) => {
      const route = routes.find((r) => `${r.method} ${r.url}` === name);
      if (!route) throw new Error(`${name} is no longer registered`);
      const failures: Failure[] = [];
      let run = 0;
      await fc.assert(
        fc.asyncProperty(callsFor(route), async (call) => {
          run += 1;
          tried += 1;
          await flushQueuedWrites(t.app);
          const before = current ?? (await fingerprint(t, tables));
          // The feed's long poll waits up to `wait` seconds: keep valid waits short so the suite stays fast.
          if (route.url === '/api/script/feed' && call.query && typeof call.query === 'object') {
            const q = call.query as Record<string, unknown>;
            if (typeof q.wait === 'number' && q.wait > 1) q.wait = 1;
            if (typeof q.wait === 'string' && /^\d+$/.test(q.wait) && Number(q.wait) > 1) q.wait = '1';
          }
          const request = requestOf(route, call, cookie, tried);
          let status = 0;
          let body = '';
          try {
            const res = await t.app.inject(request);
            status = res.statusCode;
            body = res.body;
          } catch (err) {
            status = -1;
            body = `inject threw: ${(err as Error).message}`;
          }
          const counts = statuses.get(name) ?? new Map<number, number>();
          counts.set(status, (counts.get(status) ?? 0) + 1);
          statuses.set(name, counts);
          await flushQueuedWrites(t.app);
          const after = await fingerprint(t, tables);
          current = after;
          const described = `${request.method} ${clip(String(request.url ?? ''), 200)} body ${clip(String(request.payload ?? ''), 200)}`;
          if ((status >= 500 && !retriesByContract(name, status)) || status < 0) {
            failures.push({ kind: `answered ${status} ${clip(body, 160)}`, run, request: described });
          } else if (status < 300 && forbiddenTextIn(route, call)) {
            failures.push({
              kind: `accepted U+0000 or a lone surrogate in its ${forbiddenTextIn(route, call)} with ${status}`,
              run,
              request: described,
            });
          } else if (status >= 400) {
            const changed = changedTables(before, after);
            if (changed.length) {
              failures.push({
                kind: `refused ${status} ${clip(body, 120)} yet changed ${changed.join(', ')}`,
                run,
                request: described,
              });
            }
          }
          // A logout (or anything that ended the session) signs the admin in again for the next call.
          if (route.url === '/api/admin/logout' || status === 401) {
            cookie = await t.adminCookie();
            current = undefined;
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (failures.length) {
        // One line per kind of failure (the first run that showed it), with the request that did.
        const byKind = new Map<string, Failure[]>();
        for (const f of failures)
          byKind.set(f.kind.replace(/\d+ -> \d+/g, 'N -> M'), [
            ...(byKind.get(f.kind.replace(/\d+ -> \d+/g, 'N -> M')) ?? []),
            f,
          ]);
        const report = [...byKind.entries()].map(
          ([kind, list]) =>
            `  ${list.length}x ${kind}\n     first at run ${list[0]?.run}: ${list[0]?.request}`,
        );
        expect.fail(`${failures.length} of ${run} calls failed (seed ${SEED}):\n${report.join('\n')}`);
      }
    });

    it('still answers after the fuzz', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
      expect(res.statusCode).toBe(200);
    });
  });
}

/**
 * The routes to fuzz, known when the file is collected: a throwaway app is built once (SQLite) and
 * its routes listed, so each route is its own test in the report.
 */
function routeNames(_dialect: string): string[] {
  return ROUTE_NAMES;
}

const ROUTE_NAMES: string[] = await (async () => {
  const probe = await buildTestApp('sqlite', FUZZ_ENV);
  try {
    return (captured.routes.get(probe.app) ?? [])
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
  } finally {
    await probe.close();
  }
})();
