/*
 * A bot posting batches of hops and finds to POST /api/bot/events until told to stop, recording every
 * write the server acknowledged (HTTP 200 with a `seq` per event): the load of the kill -9 and graceful
 * shutdown tests, whose check is that every acknowledged write is in the database afterwards.
 */

const PLACE = '109983668079237';

export interface Acked {
  kind: 'hop' | 'find';
  seq: number;
  bot: string;
  /** When the answer arrived (epoch ms). */
  beforeKillMs?: number;
}

/** One HTTP bot: hello, then batches of hops and finds until told to stop; records every acknowledged seq. */
export async function httpBot(
  url: string,
  botToken: string,
  ghostId: string,
  acked: Acked[],
  stop: { now: boolean; killedAt?: number },
  counts: { sent: number; refused: number },
): Promise<void> {
  const post = (events: unknown[]) =>
    fetch(`${url}/api/bot/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${botToken}` },
      body: JSON.stringify({ ghostId, events }),
    });
  const hello = await post([{ type: 'hello', payload: { ghostId, version: '1' } }]);
  if (hello.status !== 200) throw new Error(`hello ${hello.status} ${await hello.text()}`);
  let n = 0;
  while (!stop.now) {
    const events = Array.from({ length: 10 }, (_, i) => {
      n += 1;
      return i % 3 === 2
        ? {
            type: 'pet_discovered',
            payload: { name: `Pet ${n}`, value: '$1.5M/s', placeid: PLACE, jobid: `${ghostId}-job-${n}` },
          }
        : {
            type: 'server_hop',
            payload: {
              fromJobId: null,
              toJobId: `${ghostId}-job-${n}`,
              fromPlaceId: null,
              toPlaceId: PLACE,
              success: true,
              latencyMs: 100,
              hopReason: 'auto_scan',
            },
          };
    });
    counts.sent += events.length;
    let res: Response;
    try {
      res = await post(events);
    } catch {
      return; // the server is gone
    }
    if (res.status !== 200) {
      counts.refused += events.length;
      await res.text().catch(() => '');
      if (res.status === 429) await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    let body: { results?: Array<{ index: number; seq?: number }> };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      return; // cut off mid-answer: not an acknowledgement
    }
    const arrived = Date.now();
    for (const result of body.results ?? []) {
      if (typeof result.seq !== 'number') continue;
      const event = events[result.index];
      acked.push({
        kind: event?.type === 'pet_discovered' ? 'find' : 'hop',
        seq: result.seq,
        bot: ghostId,
        beforeKillMs: arrived,
      });
    }
  }
}
