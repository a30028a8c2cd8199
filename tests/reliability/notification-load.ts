import { parsePetValue } from '../../common/pet-value.ts';
import type { FakeDiscord } from '../../server/test/fake-discord.ts';

/*
 * The notification tests' and benchmark's side of the wire: the admin adding destinations through
 * the API, bots reporting finds through the bot API (acknowledged seqs recorded), and what the fake
 * Discord received, read back as finds.
 */

const PLACE = '109983668079237';

/** A session cookie from the admin login, as the admin's browser gets it. */
export async function adminSession(url: string, adminSecret: string): Promise<string> {
  const login = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ adminSecret }),
  });
  if (login.status !== 200) throw new Error(`login ${login.status} ${await login.text()}`);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Calls the admin API with the session; throws on anything but a 2xx. */
export async function adminCall<T>(
  url: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, origin: url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status < 200 || res.status > 299)
    throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface DestinationSpec {
  name: string;
  kind: 'discord' | 'json';
  url: string;
  minValue: number;
  maxValue: number | null;
  petNames?: string[];
  delaySeconds?: number;
}

/** Adds a destination through the API; its id. */
export async function addDestination(url: string, cookie: string, spec: DestinationSpec): Promise<number> {
  const answer = await adminCall<{ destination: { id: number } }>(
    url,
    cookie,
    'POST',
    '/api/admin/notifications/destinations',
    { petNames: [], delaySeconds: 0, includeJoinData: true, ...spec },
  );
  return answer.destination.id;
}

/** Whether a find goes to a destination by its rules (value range inclusive, pet names). */
export function matches(spec: DestinationSpec, find: { name: string; numericValue: number }): boolean {
  if (find.numericValue < spec.minValue) return false;
  if (spec.maxValue !== null && find.numericValue > spec.maxValue) return false;
  const names = (spec.petNames ?? []).map((n) => n.toLowerCase());
  return names.length === 0 || names.includes(find.name.toLowerCase());
}

export interface AckedFind {
  seq: number;
  name: string;
  value: string;
  numericValue: number;
  /** When the bot sent it (epoch ms). */
  sentAt: number;
}

/** The finds a load reports, in turn: values across every destination's range, a few named pets. */
export const FIND_PLAN: { name: string; value: string }[] = [
  { name: 'Lucky Cat', value: '$500K/s' },
  { name: 'Golden Dragon', value: '$1.5M/s' },
  { name: 'Lucky Cat', value: '$5M/s' },
  { name: 'Cosmic Owl', value: '$12M/s' },
  { name: 'Golden Dragon', value: '$25M/s' },
  { name: 'Cosmic Owl', value: '$2M/s' },
];

/**
 * A bot reporting `perBatch` finds every `everyMs` through POST /api/bot/events until told to stop;
 * records every find the server acknowledged with its seq.
 */
export async function findsBot(
  url: string,
  botToken: string,
  ghostId: string,
  acked: AckedFind[],
  stop: { now: boolean },
  options: { perBatch: number; everyMs: number },
): Promise<void> {
  const post = (events: unknown[]) =>
    fetch(`${url}/api/bot/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${botToken}` },
      body: JSON.stringify({ ghostId, events }),
    });
  try {
    const hello = await post([{ type: 'hello', payload: { ghostId, version: '1' } }]);
    if (hello.status !== 200) throw new Error(`hello ${hello.status} ${await hello.text()}`);
  } catch (error) {
    if (stop.now) return;
    throw error;
  }
  let n = 0;
  while (!stop.now) {
    const started = Date.now();
    const finds = Array.from({ length: options.perBatch }, () => {
      n += 1;
      return FIND_PLAN[(n + ghostId.length) % FIND_PLAN.length]!;
    });
    const events = finds.map((f) => ({
      type: 'pet_discovered',
      payload: { name: f.name, value: f.value, placeid: PLACE, jobid: `${ghostId}-job-${n}` },
    }));
    try {
      const res = await post(events);
      if (res.status === 200) {
        const body = (await res.json()) as { results?: { index: number; seq?: number }[] };
        for (const r of body.results ?? []) {
          const f = finds[r.index];
          if (typeof r.seq === 'number' && f) {
            acked.push({ seq: r.seq, ...f, numericValue: parsePetValue(f.value), sentAt: started });
          }
        }
      } else {
        await res.text().catch(() => '');
      }
    } catch {
      // The server is away (killed, restarting): try again until told to stop.
    }
    await new Promise((r) => setTimeout(r, Math.max(0, options.everyMs - (Date.now() - started))));
  }
}

export interface ReceivedFind {
  seq: number;
  name: string;
  numericValue: number;
  /** The find's time as the post gives it (epoch ms). */
  foundAt: number;
  /** When the fake received the post (epoch ms). */
  receivedAt: number;
  /** Which post carried it (its index in the fake's record). */
  post: number;
}

/** The finds a webhook of the fake received, in arrival order (a find twice is there twice). */
export function findsReceived(fake: FakeDiscord, webhookId: string): ReceivedFind[] {
  return fake.received
    .map((p, post) => ({ ...p, post }))
    .filter((p) => p.webhookId === webhookId)
    .flatMap((p) => {
      if (p.body.find) {
        const f = p.body.find;
        return [
          {
            seq: f.seq,
            name: f.name,
            numericValue: f.numericValue,
            foundAt: Date.parse(f.timestamp),
            receivedAt: p.at,
            post: p.post,
          },
        ];
      }
      return (p.body.embeds as any[]).map((e) => ({
        seq: Number(/#(\d+)$/.exec(e.footer?.text ?? '')?.[1]),
        name: e.title as string,
        numericValue: parsePetValue(e.fields.find((f: { name: string }) => f.name === 'Value')?.value),
        foundAt: Date.parse(e.timestamp),
        receivedAt: p.at,
        post: p.post,
      }));
    });
}

/** Seqs that appear more than once. */
export function duplicates(finds: { seq: number }[]): number[] {
  const seen = new Set<number>();
  const twice = new Set<number>();
  for (const f of finds) (seen.has(f.seq) ? twice : seen).add(f.seq);
  return [...twice];
}
