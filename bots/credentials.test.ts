import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCredentials, memoryCredentials, processCredentials } from './credentials.ts';
import { enrollBot } from './enrollment.ts';

describe("the simulator's bot credentials", () => {
  it('keeps botTokens in a file readable by its owner only, per server URL', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sim-credentials-')), 'data', 'bots.json');
    fileCredentials(path, 'http://a:1').set('ghost-01', 'bot_a1');
    fileCredentials(path, 'http://b:2').set('ghost-01', 'bot_b1');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(fileCredentials(path, 'http://a:1').get('ghost-01')).toBe('bot_a1');
    expect(fileCredentials(path, 'http://b:2').get('ghost-01')).toBe('bot_b1');
    expect(fileCredentials(path, 'http://c:3').get('ghost-01')).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      'http://a:1': { 'ghost-01': 'bot_a1' },
      'http://b:2': { 'ghost-01': 'bot_b1' },
    });
  });
});

describe("a process's bot credentials", () => {
  it('are shared by every store of one server URL, and apart for another', () => {
    processCredentials('http://x:1').set('ghost-01', 'bot_x');
    expect(processCredentials('http://x:1').get('ghost-01')).toBe('bot_x');
    expect(processCredentials('http://y:2').get('ghost-01')).toBeUndefined();
  });
});

describe('enrolling a simulated bot', () => {
  const servers: Array<ReturnType<typeof createServer>> = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  /** A stand-in that answers each enrollment with the next of `answers` (status, body, Retry-After). */
  async function standIn(answers: Array<[number, unknown, string?]>) {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(String(request.headers.authorization));
      request.resume();
      request.on('end', () => {
        const [status, body, retryAfter] = answers.shift() ?? [500, {}];
        if (retryAfter) response.setHeader('retry-after', retryAfter);
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it('waits out a 429, drops a stored botToken the server refuses, and keeps the new one', async () => {
    const { url, seen } = await standIn([
      [401, { error: 'Invalid bot token' }],
      [429, { error: 'Too many requests' }, '1'],
      [201, { ghostId: 'ghost-01', botToken: 'bot_new' }],
    ]);
    const credentials = memoryCredentials();
    credentials.set('ghost-01', 'bot_old');
    const startedAt = Date.now();
    expect(await enrollBot(url, 'shared', credentials, 'ghost-01', () => false)).toEqual({
      ok: true,
      botToken: 'bot_new',
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    expect(seen).toEqual(['Bearer bot_old', 'Bearer shared', 'Bearer shared']);
    expect(credentials.get('ghost-01')).toBe('bot_new');
  });

  it('says why the server refused, and speaks with the shared token to a server without enrollment', async () => {
    const refusing = await standIn([[409, { error: 'The fleet is full: at most 2 scanners' }]]);
    expect(await enrollBot(refusing.url, 'shared', memoryCredentials(), 'ghost-03', () => false)).toEqual({
      ok: false,
      error: 'enrollment refused (409 The fleet is full: at most 2 scanners)',
    });
    const older = await standIn([[404, { error: 'Not Found' }]]);
    expect(await enrollBot(older.url, 'shared', memoryCredentials(), 'ghost-01', () => false)).toEqual({
      ok: true,
      botToken: 'shared',
    });
  });
});
