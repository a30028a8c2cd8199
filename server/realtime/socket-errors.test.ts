import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, type TestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';
import { MAX_SOCKET_MESSAGE_BYTES } from './socket-errors.ts';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const WARN = 40;
const ERROR = 50;

for (const dialect of DIALECTS) {
  describe(`${dialect}: a socket message over the size limit`, () => {
    let t: TestApp | undefined;
    const clients: TestClient[] = [];
    const lines: string[] = [];
    afterEach(async () => {
      for (const client of clients.splice(0)) client.ws.terminate();
      await t?.close();
      t = undefined;
      lines.length = 0;
    });

    /** The app on a loopback port, its log (info and up) captured line by line. */
    async function start(): Promise<string> {
      t = await buildTestApp(
        dialect,
        {},
        {
          app: { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } },
        },
      );
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      return `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }
    const logged = () => lines.map((line) => JSON.parse(line) as LogLine);

    async function open(url: string, cookie?: string): Promise<TestClient> {
      const client = await connectTestClient(url, cookie, cookie ? {} : { origin: null });
      clients.push(client);
      return client;
    }

    /** Sends one message just over the limit; the socket must close with 1009, logged as one warn line. */
    async function expectRefusedQuietly(client: TestClient, path: string): Promise<void> {
      client.send(
        JSON.stringify({ type: 'heartbeat', payload: { pad: 'x'.repeat(MAX_SOCKET_MESSAGE_BYTES) } }),
      );
      expect((await client.waitClosed()).code).toBe(1009);
      // Give the server a moment to log anything it would log late.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const warnings = logged().filter((l) => l.level === WARN);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({
        msg: `socket message over ${MAX_SOCKET_MESSAGE_BYTES} bytes: closed with 1009`,
        path,
      });
      expect(logged().filter((l) => l.level >= ERROR)).toEqual([]);
      expect(lines.join('\n')).not.toMatch(/stack|\n\s+at /);
    }

    it('closes an admin socket /ws with 1009 and logs one warn line, no stack', async () => {
      const base = await start();
      const cookie = await t!.adminCookie();
      const client = await open(`${base}/ws`, cookie);
      await client.next((f) => f.type === 'system_health');
      await expectRefusedQuietly(client, '/ws');
    });

    it('closes a feed socket /ws/feed with 1009 and logs one warn line, no stack', async () => {
      const base = await start();
      const client = await open(`${base}/ws/feed`);
      await client.next((f) => f.type === 'ready');
      await expectRefusedQuietly(client, '/ws/feed');
    });

    it('still takes a message just under the limit', async () => {
      const base = await start();
      const cookie = await t!.adminCookie();
      const client = await open(`${base}/ws`, cookie);
      await client.next((f) => f.type === 'system_health');
      const overhead = JSON.stringify({ type: 'heartbeat', payload: { pad: '' } }).length;
      client.send(
        JSON.stringify({
          type: 'heartbeat',
          payload: { pad: 'x'.repeat(MAX_SOCKET_MESSAGE_BYTES - overhead) },
        }),
      );
      await client.next((f) => f.type === 'error' || f.type === 'heartbeat');
      expect(client.closed).toBeNull();
      expect(logged().filter((l) => l.level >= WARN)).toEqual([]);
    });
  });
}
