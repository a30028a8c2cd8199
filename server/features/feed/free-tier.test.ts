import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PetDiscovery } from '../../../common/fleet.ts';
import { heldFinds, shownToFree } from './free-tier.ts';
import { RecentFinds } from './recent-finds.ts';

const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const VALUES = ['$850K/s', '$6.2M/s', '$12M/s'];

/**
 * A stream of finds: rising seq with gaps (hops take positions too), times rising by up to 7 s, so
 * it spans less than the 5 minutes RecentFinds keeps.
 */
const streamOf = fc
  .array(
    fc.record({ gap: fc.integer({ min: 1, max: 3 }), ms: fc.integer({ min: 0, max: 7_000 }), v: fc.nat(2) }),
    {
      maxLength: 40,
    },
  )
  .map((steps) => {
    let seq = 0;
    let at = START;
    return steps.map(({ gap, ms, v }, i): PetDiscovery => {
      seq += gap;
      at += ms;
      return {
        id: `find-${String(i).padStart(3, '0')}`,
        seq,
        name: `Find ${i}`,
        type: 'Mythic',
        value: VALUES[v]!,
        numericValue: 0,
        count: 1,
        timestamp: new Date(at).toISOString(),
        placeid: '1',
        jobid: `job-${i}`,
        scannerId: 'ghost-01',
        botId: 'ghost-01',
      };
    });
  });

describe('what the free tier holds back', () => {
  it('is the same from any cursor as for a reader from the start', () => {
    fc.assert(
      fc.property(streamOf, fc.nat(), (finds, pick) => {
        const recent = new RecentFinds<PetDiscovery>((d) => d);
        for (const find of finds) recent.add(find);
        const fromStart = shownToFree(finds, heldFinds());
        // Any cursor, at a find or between two: what follows it is the same as from the start.
        const cursor = finds.length === 0 ? 0 : (finds[pick % finds.length]?.seq ?? 0) - (pick % 2);
        const after = finds.filter((d) => d.seq > cursor);
        const resumed = shownToFree(after, heldFinds(recent.heldAt(cursor)));
        expect(resumed).toEqual(fromStart.filter((d) => d.seq > cursor));
      }),
      { numRuns: 300 },
    );
  });

  it('shows a 5–10M/s find only after its minute, cut to it, with nothing that links it', () => {
    const find = (seq: number, value: string, at: number): PetDiscovery => ({
      id: `id-${seq}`,
      seq,
      name: `Find ${seq}`,
      type: 'Mythic',
      value,
      numericValue: 0,
      count: 1,
      timestamp: new Date(START + at).toISOString(),
      placeid: '1',
      jobid: `job-${seq}`,
      scannerId: 'ghost-01',
      botId: 'ghost-01',
    });
    const shown = shownToFree(
      [find(1, '$1M/s', 5_000), find(2, '$6M/s', 5_000), find(3, '$2M/s', 59_999), find(4, '$12M/s', 60_000)],
      heldFinds(),
    );
    expect(shown.map((d) => [d.name, d.seq])).toEqual([
      ['Find 1', 1],
      ['Find 3', 3],
      ['Find 2', 4],
    ]);
    expect(shown[2]).toMatchObject({
      timestamp: new Date(START).toISOString(),
      jobid: null,
      placeid: null,
      botId: null,
      scannerId: null,
    });
  });
});
