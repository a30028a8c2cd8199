import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helper.ts';

/** An answer's headers, leaving out those that differ between any two answers (clock, length, connection). */
function lastingHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, 'content-length': _length, connection: _connection, ...rest } = headers;
  return rest;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as bytes on a fresh connection and reads the whole answer (the server closes after it). */
function sendRaw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe('what Fastify and Node refuse before routing, answered as the app answers', () => {
  const t = useTestApp('sqlite', { listen: true });
  const port = () => (t.app.server.address() as AddressInfo).port;

  it("answers a malformed URL with the app's 400 {error} and every header an ordinary answer has", async () => {
    const ordinary = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(ordinary.statusCode).toBe(404);
    expect(ordinary.headers['permissions-policy']).toBeDefined();
    for (const url of ['/foo/%E0%A4%A', '/api/public/%E0%A4%A', '/api/admin/license-keys/%E0%A4%A']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ error: 'Malformed URL: its path has an invalid percent-encoding' });
      expect(lastingHeaders(res.headers), url).toEqual(lastingHeaders(ordinary.headers));

      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(400);
      expect(head.body, url).toBe('');
      expect(lastingHeaders(head.headers), url).toEqual(lastingHeaders(ordinary.headers));
    }
  });

  it('answers the same over a real connection, naming no framework', async () => {
    const res = await sendRaw(
      port(),
      'GET /foo/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: 'Malformed URL: its path has an invalid percent-encoding',
    });
    expect(res.body).not.toMatch(/FST_|fastify/i);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['permissions-policy']).toContain('camera=()');
  });

  it("answers a request Node cannot read with the app's {error} and the security headers", async () => {
    const ordinary = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    const res = await sendRaw(port(), 'GET / HTTP/1.1\r\nHost: localhost\r\nNot a header line\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'Bad request: the server could not read it' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    for (const [name, value] of Object.entries(lastingHeaders(ordinary.headers))) {
      if (name !== 'content-type') expect(res.headers[name], name).toBe(value);
    }
  });
});
