import type { InjectOptions } from 'fastify';
import { TEST_BOT_TOKEN, type TestApp } from '../../test/helper.ts';
import { connectTestClient, type TestClient } from '../../test/socket-client.ts';

/*
 * What bot-credential tests do as a bot would: enroll, post events, claim, open a socket. Bots are
 * not browsers: no Origin.
 */

export const SHARED = TEST_BOT_TOKEN;

const bearer = (token: string | null) => (token === null ? {} : { authorization: `Bearer ${token}` });

/** POST /api/bot/enroll {ghostId} with `token` as the Bearer (null: none), from `remoteAddress`. */
export function enroll(t: TestApp, ghostId: string, token: string | null = SHARED, remoteAddress?: string) {
  return t.injectBare({
    method: 'POST',
    url: '/api/bot/enroll',
    headers: bearer(token),
    payload: { ghostId },
    ...(remoteAddress ? { remoteAddress } : {}),
  } as InjectOptions);
}

/** Enrolls `ghostId` with the shared token; its botToken. */
export async function enrolled(t: TestApp, ghostId: string): Promise<string> {
  const res = await enroll(t, ghostId);
  if (res.statusCode !== 201) throw new Error(`enrolling ${ghostId}: ${res.statusCode} ${res.body}`);
  return (res.json() as { botToken: string }).botToken;
}

/** POST /api/bot/events with `token`; `ghostId` in the body only when given. */
export function postEvents(
  t: TestApp,
  token: string,
  ghostId?: string,
  events: object[] = [{ type: 'heartbeat' }],
  remoteAddress?: string,
) {
  return t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers: bearer(token),
    payload: { ...(ghostId === undefined ? {} : { ghostId }), events },
    ...(remoteAddress ? { remoteAddress } : {}),
  } as InjectOptions);
}

/** A bot call to the server pool with `token`. */
export function poolCall(t: TestApp, path: 'servers' | 'claim' | 'release', token: string, payload: object) {
  return t.injectBare({
    method: 'POST',
    url: `/api/server-pool/${path}`,
    headers: bearer(token),
    payload,
  } as InjectOptions);
}

/** `socketUrl` with `token` as its `?token=`. */
const withToken = (socketUrl: string, token: string) =>
  `${socketUrl}${socketUrl.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;

/** Opens a bot socket with `token` (as `?token=`) and says hello as `ghostId`; resolves once it is answered. */
export async function helloSocket(socketUrl: string, token: string, ghostId: string): Promise<TestClient> {
  const client = await connectTestClient(withToken(socketUrl, token), undefined, {
    origin: null,
  });
  client.send({ type: 'hello', payload: { ghostId, version: '1.0' }, id: 'h' });
  await client.next((f) => f.type === 'hello' || f.type === 'error');
  return client;
}

/** Whether a socket with `token` is let in: 'open', or the refusal. */
export async function upgrade(socketUrl: string, token: string): Promise<string> {
  try {
    const client = await connectTestClient(withToken(socketUrl, token), undefined, {
      origin: null,
    });
    client.ws.terminate();
    return 'open';
  } catch (error) {
    return (error as Error).message;
  }
}
