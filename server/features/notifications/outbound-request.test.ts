import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from './outbound-address.ts';
import { checkOutboundUrl, type OutboundPolicy, OutboundUrlError, postJson } from './outbound-request.ts';

const strict: OutboundPolicy = { allowHosts: [], allowPrivate: false };
const loopback: OutboundPolicy = { allowHosts: ['127.0.0.1'], allowPrivate: true };

async function refusal(url: string, kind: 'discord' | 'json', policy = strict): Promise<string> {
  try {
    await checkOutboundUrl(url, kind, policy);
  } catch (e) {
    expect(e).toBeInstanceOf(OutboundUrlError);
    return (e as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('checkOutboundUrl', () => {
  it("passes Discord's webhook hosts with the webhook path, and any public https URL for json", async () => {
    for (const host of ['discord.com', 'ptb.discord.com', 'canary.discordapp.com', 'discordapp.com']) {
      // Offline machines cannot resolve them: whatever else is said, the host and path rules pass.
      const said = await checkOutboundUrl(`https://${host}/api/webhooks/1/tok`, 'discord', strict).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
      expect(said).toMatch(/^(accepted|The URL's host .* does not resolve)$/);
    }
    const checked = await checkOutboundUrl('https://1.1.1.1/hook', 'json', strict);
    expect(checked.addresses).toEqual([{ address: '1.1.1.1', family: 4 }]);
  });

  it('names the rule a URL breaks', async () => {
    expect(await refusal('not a url', 'json')).toMatch(/not a valid URL/);
    expect(await refusal('http://1.1.1.1/hook', 'json')).toMatch(/https/);
    expect(await refusal('ftp://1.1.1.1/hook', 'json')).toMatch(/https/);
    expect(await refusal('https://evil.example/api/webhooks/1/t', 'discord')).toMatch(/Discord's hosts/);
    expect(await refusal('https://discord.com/api/other/1/t', 'discord')).toMatch(/\/api\/webhooks\/\{id\}/);
    expect(await refusal('https://127.0.0.1/hook', 'json')).toMatch(/private, loopback or link-local/);
    expect(await refusal('https://[::1]/hook', 'json')).toMatch(/private/);
    expect(await refusal('https://169.254.169.254/latest', 'json')).toMatch(/private/);
    expect(await refusal('https://[::ffff:10.0.0.1]/hook', 'json')).toMatch(/private/);
    expect(await refusal('https://localhost/hook', 'json')).toMatch(/private/);
  });

  it('lets NOTIFY_ALLOW_HOSTS and NOTIFY_ALLOW_PRIVATE reach a fake Discord on loopback over http', async () => {
    const checked = await checkOutboundUrl('http://127.0.0.1:9/api/webhooks/1/t', 'discord', loopback);
    expect(checked.url.port).toBe('9');
    // Plain http still needs a private address.
    expect(await refusal('http://1.1.1.1/hook', 'json', loopback)).toMatch(/https/);
  });

  it('classes only public unicast addresses as reachable, classic private ranges refused', () => {
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:0:a00:1', // SIIT (RFC 6145) of 10.0.0.1
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      'not an address',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of [
      '1.1.1.1',
      '162.159.135.232',
      '2606:4700::6810:1',
      '::ffff:1.1.1.1',
      '64:ff9b::101:101', // NAT64 of 1.1.1.1
      '2002:101:101::1', // 6to4 of 1.1.1.1
    ]) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });

  it('refuses IPv4-compatible, 6to4, local-use NAT64 and site-local IPv6 that reach inside, sending nothing', async () => {
    let connections = 0;
    const listener = createServer((_req, res) => {
      connections += 1;
      res.end();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const host of [
        '::127.0.0.1', // IPv4-compatible loopback
        '::7f00:1', // the same, in hex
        '2002:7f00:1::1', // 6to4 of 127.0.0.1
        '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
        '64:ff9b:1::7f00:1', // local-use NAT64 (RFC 8215)
        'fec0::1', // site-local (deprecated, RFC 3879)
      ]) {
        expect(isPublicAddress(host), host).toBe(false);
        const url = `https://[${host}]:${port}/hook`;
        expect(await refusal(url, 'json')).toMatch(/private, loopback or link-local/);
        await expect(postJson(url, {}, strict, 'json'), host).rejects.toThrow(OutboundUrlError);
      }
    } finally {
      await new Promise((r) => listener.close(r));
    }
    expect(connections).toBe(0);
  });
});

describe('postJson', () => {
  let server: Server;
  let base: string;
  let seen: { host?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        if (req.url === '/redirect') {
          res.writeHead(302, { location: '/elsewhere' }).end();
        } else if (req.url === '/big') {
          res.writeHead(200).end('x'.repeat(200 * 1024));
        } else if (req.url === '/slow') {
          // Never answers: the 5 s timeout must end it.
        } else {
          res.writeHead(204, { 'x-ratelimit-remaining': '4' }).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('posts the JSON and returns the answer', async () => {
    seen = [];
    const res = await postJson(`${base}/hook`, { a: 1 }, loopback, 'json');
    expect(res.status).toBe(204);
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
    expect(seen[0]!.body).toBe('{"a":1}');
    expect(seen[0]!.host).toBe(new URL(base).host);
  });

  it('connects to the address it checked for a host name, keeping the name as Host', async () => {
    seen = [];
    const port = new URL(base).port;
    const res = await postJson(`http://localhost:${port}/hook`, { b: 2 }, loopback, 'json');
    expect(res.status).toBe(204);
    expect(seen[0]!.host).toBe(`localhost:${port}`);
  });

  it('follows no redirect and reads at most 64 KiB', async () => {
    seen = [];
    const redirected = await postJson(`${base}/redirect`, {}, loopback, 'json');
    expect(redirected.status).toBe(302);
    expect(seen).toHaveLength(1);
    const big = await postJson(`${base}/big`, {}, loopback, 'json');
    expect(big.body.length).toBe(64 * 1024);
  });

  it('gives up on a server that does not answer', async () => {
    await expect(postJson(`${base}/slow`, {}, loopback, 'json')).rejects.toThrow(/No answer within 5 s/);
  }, 10_000);

  it('refuses a private address again at send time', async () => {
    await expect(postJson(`${base}/hook`, {}, strict, 'json')).rejects.toThrow(OutboundUrlError);
  });
});
