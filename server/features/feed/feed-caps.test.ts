import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';
import { insertTestScriptKey } from '../loader/script-access.fixtures.ts';
import { FEED_CLOSE_CODES, FEED_TEXTS } from './feed.service.ts';

/*
 * Finding 4 of the abuse issue: /ws/feed had no cap per address (240 sockets open from one IP after
 * two minutes, growing by 120 a minute). Loopback clients all come from 127.0.0.1.
 */

/** Upgrades are not what is tested here: the per-window limit is set out of the way. */
const MANY_UPGRADES = { RATE_LIMIT_FEED: '100000' };

type Outcome = { client: TestClient; open: boolean } | { refused: string };

/**
 * Tries to open a feed socket and says how it ended up once the server has decided: open (it got
 * its `ready` frame and stays open), or refused (429 on the upgrade, or closed right after it).
 */
async function attempt(t: TestAppSuite, clients: TestClient[], query = ''): Promise<Outcome> {
  let client: TestClient;
  try {
    client = await connectTestClient(`${t.socketUrl}/feed${query}`, undefined, { origin: null });
  } catch (err) {
    return { refused: (err as Error).message };
  }
  clients.push(client);
  await Promise.race([
    client.next((f) => f.type === 'ready', { timeoutMs: 10_000 }),
    client.waitClosed(10_000),
  ]);
  return { client, open: client.closed === null };
}

async function attempts(t: TestAppSuite, clients: TestClient[], count: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  // In waves of 50 at once: the server sees them race each other, the test machine keeps up.
  for (let i = 0; i < count; i += 50) {
    const wave = Array.from({ length: Math.min(50, count - i) }, () => attempt(t, clients));
    outcomes.push(...(await Promise.all(wave)));
  }
  return outcomes;
}

const openCount = (outcomes: Outcome[]) => outcomes.filter((o) => 'open' in o && o.open).length;

function useClients(): TestClient[] {
  const clients: TestClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.ws.terminate();
  });
  return clients;
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: feed sockets per address (FEED_SOCKETS_PER_ADDRESS=4)`, () => {
    const t = useTestApp(dialect, { listen: true, env: { ...MANY_UPGRADES, FEED_SOCKETS_PER_ADDRESS: '4' } });
    const clients = useClients();

    it('keeps 4 of 300 attempts from one address open and refuses the rest, clearly', async () => {
      const outcomes = await attempts(t, clients, 300);
      expect(openCount(outcomes)).toBe(4);
      // Refused before the upgrade (429), or, when attempts raced past that check, closed with 4429.
      for (const outcome of outcomes) {
        if ('refused' in outcome) expect(outcome.refused).toBe('refused with 429');
        else if (!outcome.open) {
          expect(outcome.client.closed).toEqual({
            code: FEED_CLOSE_CODES.addressFull,
            reason: FEED_TEXTS.addressFull(4).slice(0, 120),
          });
          expect(outcome.client.ofType('error')[0]?.payload).toEqual({ error: FEED_TEXTS.addressFull(4) });
        }
      }
      const res = await t.injectBare({ method: 'GET', url: '/ws/feed', remoteAddress: '127.0.0.1' });
      expect([res.statusCode, res.json()]).toEqual([429, { error: FEED_TEXTS.addressFull(4) }]);

      // A socket that closes frees its place; another address has places of its own.
      const opened = outcomes.flatMap((o) => ('open' in o && o.open ? [o.client] : []));
      opened[0]?.ws.close();
      await opened[0]?.waitClosed();
      const next = await retryUntilOpen(t, clients);
      expect(next.open).toBe(true);
      const elsewhere = await t.injectBare({ method: 'GET', url: '/ws/feed', remoteAddress: '10.9.0.1' });
      expect(elsewhere.statusCode).not.toBe(429);
    });
  });

  describe(`${dialect}: feed sockets per address, by default`, () => {
    const t = useTestApp(dialect, { listen: true, env: MANY_UPGRADES });
    const clients = useClients();

    it('keeps 10 of 300 attempts from one address open', async () => {
      expect(openCount(await attempts(t, clients, 300))).toBe(10);
    });
  });

  describe(`${dialect}: feed sockets per key (FEED_SOCKETS_PER_KEY=2)`, () => {
    const t = useTestApp(dialect, { listen: true, env: { ...MANY_UPGRADES, FEED_SOCKETS_PER_KEY: '2' } });
    const clients = useClients();

    it('closes the oldest socket of a key when a third opens, saying it was replaced', async () => {
      const key = await insertTestScriptKey(t);
      const query = `?key=${key.scriptKey}&hwid=device-1`;
      const sockets: TestClient[] = [];
      for (let i = 0; i < 3; i++) {
        const outcome = await attempt(t, clients, query);
        if (!('client' in outcome)) throw new Error(outcome.refused);
        sockets.push(outcome.client);
      }
      const [oldest, second, newest] = sockets;
      expect(await oldest?.waitClosed()).toEqual({
        code: FEED_CLOSE_CODES.replaced,
        reason: FEED_TEXTS.replaced(2).slice(0, 120),
      });
      expect(oldest?.ofType('error').at(-1)?.payload).toEqual({ error: FEED_TEXTS.replaced(2) });
      expect([second?.closed, newest?.closed]).toEqual([null, null]);

      // Keyless sockets from the same address are not the key's: they stay within the address cap.
      const keyless = await attempt(t, clients);
      expect('open' in keyless && keyless.open).toBe(true);
      expect([second?.closed, newest?.closed]).toEqual([null, null]);
    });
  });
}

/** The server forgets a closed socket once its close is handled: a new attempt may race that. */
async function retryUntilOpen(t: TestAppSuite, clients: TestClient[]): Promise<{ open: boolean }> {
  for (let i = 0; i < 20; i++) {
    const outcome = await attempt(t, clients);
    if ('open' in outcome && outcome.open) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { open: false };
}
