import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BotMessageSchemas } from '../../common/fleet.ts';
import { ClientMessageSchemas, FrameSchema } from '../../common/realtime.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp } from '../../server/test/helper.ts';
import { connectTestClient, type TestClient } from '../../server/test/socket-client.ts';
import {
  arbitraryFor,
  holdsForbiddenText,
  hostileAny,
  hostileString,
  jsonSchemaOf,
  KNOWN_VALUES,
  toJsonText,
  toQueryString,
} from './hostile.ts';
import { FUZZ_ENV, RUNS, SEED, type Seeded, seed } from './setup.ts';

/*
 * Property-based fuzz of every socket frame kind: the admin socket (/ws with the session cookie),
 * the bot socket (/ws with the bot token) and the discovery feed (/ws/feed), over real sockets on a
 * loopback port. It holds when the server never answers a frame with an internal error ("Could not
 * handle …"), every bad frame (one its schema refuses, or holding U+0000 or a lone surrogate) gets an
 * `error` frame or a documented close, and the server is still up and answering afterwards.
 */

/** Close codes docs/rules*.md document for a refused socket (and the ordinary ones). */
// 4410 and 4429: a feed socket replaced by a newer one with its key, or one past its address's share.
const DOCUMENTED_CLOSES = new Set([1000, 1001, 1008, 1009, 4400, 4401, 4403, 4409, 4410, 4429]);
const MAX_FRAME_BYTES = 64 * 1024;

type Sent = { text: string; binary?: boolean; bad: boolean; tooLarge?: boolean; type?: string };

/** A frame of `kind` as fast-check draws it: shaped by the payload schema, hostile leaves, sometimes raw. */
function framesOf(kind: string, payloadSchema: unknown, known: Record<string, unknown>): fc.Arbitrary<Sent> {
  const payload = arbitraryFor(jsonSchemaOf(payloadSchema));
  const shaped = fc
    .record(
      {
        type: fc.oneof({ weight: 9, arbitrary: fc.constant(kind) }, { weight: 1, arbitrary: hostileString }),
        payload,
        id: fc.oneof(fc.string({ maxLength: 12 }), hostileAny),
        timestamp: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), hostileAny),
      },
      { requiredKeys: ['type', 'payload'] },
    )
    .map((frame) => {
      const bad = isBadFrame(frame, known);
      return { text: toJsonText(frame), bad, type: typeof frame.type === 'string' ? frame.type : undefined };
    });
  const raw = fc.constantFrom<Sent>(
    { text: '{not json', bad: true },
    { text: '', bad: true },
    { text: 'null', bad: true },
    { text: '[]', bad: true },
    { text: JSON.stringify({ type: kind }), bad: false },
    { text: `{"type":"${kind}","payload":${'['.repeat(1000)}${']'.repeat(1000)}}`, bad: true },
    { text: `{"type":"${kind}","payload":${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}}`, bad: true },
    { text: '{"type":"\\u0000"}', bad: true },
    { text: `{"type":"${kind}","payload":{},"id":"\\ud800"}`, bad: true },
    { text: '{"__proto__":{"polluted":1},"type":"heartbeat"}', bad: true },
    { text: 'binary', binary: true, bad: true },
    {
      text: JSON.stringify({ type: kind, payload: { pad: 'x'.repeat(MAX_FRAME_BYTES + 10) } }),
      bad: true,
      tooLarge: true,
    },
  );
  return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: raw });
}

/** The oracle: would a careful server refuse this frame? */
function isBadFrame(frame: Record<string, unknown>, schemas: Record<string, unknown>): boolean {
  if (holdsForbiddenText(frame)) return true;
  // JSON text round trip: what the server parses (RawJson numbers, -0, 1e400 become what JSON says)
  const parsedFrame = JSON.parse(toJsonText(frame)) as unknown;
  const checked = FrameSchema.safeParse(parsedFrame);
  if (!checked.success) return true;
  const schema = schemas[checked.data.type] as { safeParse(v: unknown): { success: boolean } } | undefined;
  if (!schema || !Object.hasOwn(schemas, checked.data.type)) return true;
  return !schema.safeParse(checked.data.payload).success;
}

interface Failure {
  kind: string;
  frame: string;
}

const clip = (text: string, max = 240) =>
  JSON.stringify(text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

for (const dialect of DIALECTS) {
  describe(`${dialect}: fuzz of every socket frame kind (seed ${SEED}, ${RUNS} runs a kind)`, () => {
    let t: TestApp;
    let cookie = '';
    let base = '';
    let seeded: Seeded;
    let frames = 0;
    let botCount = 0;

    beforeAll(async () => {
      t = await buildTestApp(dialect, FUZZ_ENV);
      cookie = await t.adminCookie();
      seeded = await seed(t, cookie);
      KNOWN_VALUES.push(seeded.scriptKey, seeded.freeScriptKey, seeded.ghostId);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      console.log(`${dialect}: socket fuzz sent ${frames} frames`);
      await t?.close();
    });

    /** A bot socket that said hello (a fresh bot id each time). */
    async function helloBot(): Promise<TestClient> {
      botCount += 1;
      const ghostId = `fuzz-bot-${botCount}`;
      const client = await connectTestClient(`${base}/ws?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      client.send({ type: 'hello', payload: { ghostId, version: '1' }, id: 'hello' });
      await client.next((f) => f.type === 'hello' || f.type === 'error');
      const refused = client.frames.find((f) => f.type === 'error');
      if (refused) throw new Error(`the bot's hello was refused: ${JSON.stringify(refused.payload)}`);
      return client;
    }

    const adminSocket = () => connectTestClient(`${base}/ws`, cookie);

    /**
     * Sends each drawn frame followed by a heartbeat probe, and reads what came back up to the
     * probe's answer: frames are handled in order, so everything the frame caused is in that window.
     */
    async function fuzzKind(
      kind: string,
      schemas: Record<string, unknown>,
      open: () => Promise<TestClient>,
      /** 'heartbeat': the probe is answered with a heartbeat; 'error': before hello, everything gets an error. */
      probe: 'heartbeat' | 'error' = 'heartbeat',
    ): Promise<void> {
      let client = await open();
      const failures: Failure[] = [];
      let run = 0;
      await fc.assert(
        fc.asyncProperty(framesOf(kind, schemas[kind], schemas), async (sent) => {
          run += 1;
          frames += 1;
          const from = client.frames.length;
          const heartbeatsBefore = client.ofType(probe).length;
          if (sent.binary) client.ws.send(Buffer.from([0, 1, 2, 255]), { binary: true });
          else client.ws.send(sent.text);
          // A valid heartbeat is answered with a heartbeat too: then the probe's is the second.
          // Before hello the frame itself is answered with an error, whatever it is: the probe's is the second.
          const expected = probe === 'error' ? 2 : 1 + (sent.type === 'heartbeat' && !sent.bad ? 1 : 0);
          client.ws.send(JSON.stringify({ type: 'heartbeat', payload: {}, id: `probe-${run}` }));
          const deadline = Date.now() + 3000;
          while (
            !client.closed &&
            client.ofType(probe).length < heartbeatsBefore + expected &&
            Date.now() < deadline
          ) {
            await new Promise((r) => setTimeout(r, 5));
          }
          const answered = client.frames.slice(from);
          const errors = answered.filter((f) => f.type === 'error');
          const internal = errors.find((f) => /could not handle|internal/i.test(JSON.stringify(f.payload)));
          if (internal)
            failures.push({
              kind: `internal error frame ${JSON.stringify(internal.payload)}`,
              frame: sent.text,
            });
          if (client.closed) {
            const { code, reason } = client.closed;
            if (!DOCUMENTED_CLOSES.has(code))
              failures.push({ kind: `closed with undocumented ${code} ${reason}`, frame: sent.text });
            else if (sent.tooLarge && code !== 1009)
              failures.push({ kind: `a frame over 64 KiB closed ${code}, not 1009`, frame: sent.text });
            client = await open();
          } else if (sent.tooLarge) {
            failures.push({ kind: 'a frame over 64 KiB did not close the socket', frame: sent.text });
          } else if (client.ofType(probe).length < heartbeatsBefore + 1) {
            failures.push({
              kind: 'no answer to the probe within 3 s (the socket stopped handling frames)',
              frame: sent.text,
            });
            client.ws.terminate();
            client = await open();
          } else if (sent.bad && errors.length === 0) {
            failures.push({ kind: 'a bad frame got no error frame', frame: sent.text });
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      client.ws.close();
      if (failures.length) {
        const byKind = new Map<string, Failure[]>();
        for (const f of failures) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
        const report = [...byKind].map(
          ([k, list]) => `  ${list.length}x ${k}\n     e.g. ${clip(list[0]?.frame ?? '')}`,
        );
        expect.fail(`${failures.length} of ${run} frames failed (seed ${SEED}):\n${report.join('\n')}`);
      }
    }

    it.for(Object.keys(BotMessageSchemas))('bot socket: %s frames', async (kind) => {
      await fuzzKind(kind, BotMessageSchemas, helloBot);
    });

    it.for(Object.keys(ClientMessageSchemas))('admin socket: %s frames', async (kind) => {
      await fuzzKind(kind, ClientMessageSchemas, adminSocket);
    });

    it('bot socket: frames before hello get an error frame', async () => {
      await fuzzKind(
        'scanner_status',
        BotMessageSchemas,
        () => connectTestClient(`${base}/ws?token=${TEST_BOT_TOKEN}`, undefined, { origin: null }),
        'error',
      );
    });

    it('feed socket: hostile key, hwid and since, then hostile frames', async () => {
      const failures: Failure[] = [];
      const query = fc.record(
        {
          key: fc.oneof(fc.constantFrom(seeded.scriptKey, seeded.freeScriptKey), hostileString, hostileAny),
          hwid: fc.oneof(fc.constantFrom('hwid-1', 'device-2'), hostileString),
          since: fc.oneof(fc.nat().map(String), hostileString, hostileAny),
        },
        { requiredKeys: [] },
      );
      const after = fc.array(
        fc.oneof(
          hostileString,
          hostileAny.map((v) => toJsonText(v)),
        ),
        { maxLength: 3 },
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(query, after, async (q, extra) => {
          run += 1;
          frames += 1 + extra.length;
          const search = toQueryString(q);
          const describeCase = `/ws/feed${search}`;
          const ws = new WebSocket(`${base}/ws/feed${search}`);
          const outcome = await new Promise<{ status?: number; frames: string[]; close?: number }>(
            (resolve) => {
              const got: string[] = [];
              let settled = false;
              const done = (v: { status?: number; close?: number }) => {
                if (settled) return;
                settled = true;
                resolve({ ...v, frames: got });
              };
              ws.on('unexpected-response', (_req, res) => done({ status: res.statusCode ?? 0 }));
              ws.on('error', () => done({ status: -1 }));
              ws.on('message', (data) => {
                got.push(String(data));
                const type = (JSON.parse(String(data)) as { type: string }).type;
                if (type === 'ready') {
                  for (const text of extra) ws.send(text);
                  setTimeout(() => done({}), 50);
                }
              });
              ws.on('close', (code) => done({ close: code }));
              // Not a wait: a bound for a socket that neither opens nor closes (settles at once otherwise).
              setTimeout(() => done({}), 3000);
            },
          );
          ws.terminate();
          const first = outcome.frames[0]
            ? (JSON.parse(outcome.frames[0]) as { type: string; payload: unknown })
            : undefined;
          const nulInQuery = holdsForbiddenText(q);
          if (outcome.status !== undefined) {
            if (outcome.status >= 500 || outcome.status < 0)
              failures.push({ kind: `upgrade answered ${outcome.status}`, frame: describeCase });
            return;
          }
          if (!first) {
            failures.push({
              kind: `no ready or error frame (close ${outcome.close ?? 'none'})`,
              frame: describeCase,
            });
          } else if (
            first.type === 'error' &&
            /unavailable|internal|could not/i.test(JSON.stringify(first.payload))
          ) {
            failures.push({
              kind: `internal error frame ${JSON.stringify(first.payload)}`,
              frame: describeCase,
            });
          } else if (
            first.type === 'ready' &&
            nulInQuery &&
            typeof q.key === 'string' &&
            q.key.includes('\u0000')
          ) {
            failures.push({ kind: 'ready for a key holding U+0000', frame: describeCase });
          }
          if (
            outcome.close !== undefined &&
            !DOCUMENTED_CLOSES.has(outcome.close) &&
            outcome.close !== 4008
          ) {
            failures.push({ kind: `closed with undocumented ${outcome.close}`, frame: describeCase });
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (failures.length) {
        const report = failures.map((f) => `  ${f.kind}\n     ${clip(f.frame)}`);
        expect.fail(`${failures.length} of ${run} feed sockets failed (seed ${SEED}):\n${report.join('\n')}`);
      }
    });

    it('the server is still up: HTTP answers and a new bot can say hello', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
      expect(res.statusCode).toBe(200);
      const bot = await helloBot();
      bot.ws.close();
      const admin = await adminSocket();
      admin.ws.close();
    });
  });
}
