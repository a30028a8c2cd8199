import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PetDiscovery } from '../../../common/fleet.ts';
import type { Db } from '../../db/index.ts';
import { type FakeDiscord, seqsReceived, startFakeDiscord } from '../../test/fake-discord.ts';
import { DIALECTS, openTestDatabase } from '../../test/helper.ts';
import { sendTestFind } from './destination-posts.ts';
import { type NotificationDispatcher, startNotificationDispatcher } from './dispatcher.ts';

const policy = { allowHosts: ['127.0.0.1'], allowPrivate: true };
const quiet = { info() {}, warn() {}, error() {} };

function find(seq: number, over: Partial<PetDiscovery> = {}): PetDiscovery {
  return {
    id: `find-${seq}`,
    seq,
    name: `Pet ${seq}`,
    type: 'Secret',
    value: '$3M/s',
    numericValue: 3_000_000,
    count: 1,
    timestamp: new Date().toISOString(),
    placeid: '109983668079237',
    jobid: `job-${seq}`,
    scannerId: 'scanner-1',
    botId: 'bot-1',
    ...over,
  };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the notification dispatcher`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    let fake: FakeDiscord;
    const running: NotificationDispatcher[] = [];

    beforeEach(async () => {
      ({ db, drop } = await openTestDatabase(dialect));
      fake = await startFakeDiscord();
    });
    afterEach(async () => {
      await Promise.all(running.splice(0).map((d) => d.stop()));
      await fake.close();
      await drop();
    });

    function start(instanceId = 'instance-a') {
      const dispatcher = startNotificationDispatcher({
        db,
        dialect,
        clock: Date.now,
        logger: quiet,
        policy,
        joinUrlTemplate: 'https://example.com/join?placeId={placeId}&gameInstanceId={jobId}',
        instanceId,
        pollMs: 20,
      });
      running.push(dispatcher);
      return dispatcher;
    }

    async function addDestination(url: string, kind: 'discord' | 'json' = 'discord'): Promise<number> {
      const row = await db
        .insertInto('notification_destinations')
        .values({
          name: `dest-${kind}`,
          kind,
          url,
          min_value: 0,
          max_value: null,
          pet_names: '[]',
          delay_seconds: 0,
          include_join_data: 1,
          mention_role_id: null,
          mention_from_value: null,
          enabled: 1,
          disabled_reason: null,
          created_at: Date.now(),
          updated_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }

    async function enqueue(
      destinationId: number,
      seqs: number[],
      dueAt = Date.now(),
      attempts = 0,
      foundAt = Date.now(),
    ) {
      await db
        .insertInto('notification_outbox')
        .values(
          seqs.map((seq) => ({
            destination_id: destinationId,
            discovery_seq: seq,
            payload: JSON.stringify(find(seq)),
            state: 'pending',
            attempts,
            found_at: foundAt,
            due_at: dueAt,
            created_at: Date.now(),
            sent_at: null,
            last_error: null,
          })),
        )
        .execute();
    }

    const states = async (destinationId: number) =>
      (
        await db
          .selectFrom('notification_outbox')
          .select(['discovery_seq', 'state', 'attempts', 'last_error'])
          .where('destination_id', '=', destinationId)
          .orderBy('discovery_seq')
          .execute()
      ).map((r) => ({ ...r, discovery_seq: Number(r.discovery_seq) }));

    it('posts a burst as folded Discord messages, each find once, and marks them sent', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      const seqs = Array.from({ length: 25 }, (_, i) => i + 1);
      await enqueue(dest, seqs);
      start();
      await vi.waitFor(async () => expect((await states(dest)).every((r) => r.state === 'sent')).toBe(true), {
        timeout: 10_000,
      });
      expect(seqsReceived(fake, hook.id).sort((a, b) => a - b)).toEqual(seqs);
      expect(fake.received.length).toBe(3);
      const embed = fake.received[0]!.body.embeds[0];
      expect(embed.title).toBe('Pet 1');
      expect(embed.fields.find((f: { name: string }) => f.name === 'Join').value).toContain(
        'TeleportToPlaceInstance(109983668079237, "job-1")',
      );
    });

    it('waits for a find that is not due yet', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      await enqueue(dest, [1]);
      await enqueue(dest, [2], Date.now() + 60_000);
      start();
      await vi.waitFor(async () => expect((await states(dest))[0]!.state).toBe('sent'), { timeout: 10_000 });
      expect((await states(dest))[1]!.state).toBe('pending');
      expect(seqsReceived(fake, hook.id)).toEqual([1]);
    });

    it("obeys the webhook's rate limit: one find per request to a json endpoint, no 429", async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url, 'json');
      const seqs = Array.from({ length: 12 }, (_, i) => i + 1);
      await enqueue(dest, seqs);
      start();
      await vi.waitFor(async () => expect((await states(dest)).every((r) => r.state === 'sent')).toBe(true), {
        timeout: 15_000,
      });
      expect(seqsReceived(fake, hook.id)).toEqual(seqs);
      expect(fake.received[0]!.body.destination).toEqual({ id: dest, name: 'dest-json' });
      expect(fake.rateLimited).toBe(0);
    });

    it('retries while the fake is down and delivers once it is back', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      fake.takeDown('503');
      await enqueue(dest, [1, 2]);
      start();
      await vi.waitFor(async () => expect((await states(dest))[0]!.attempts).toBeGreaterThan(0), {
        timeout: 10_000,
      });
      expect((await states(dest))[0]!.last_error).toBe('HTTP 503');
      fake.takeDown('reset');
      await vi.waitFor(async () => expect((await states(dest))[0]!.attempts).toBeGreaterThan(1), {
        timeout: 10_000,
      });
      fake.bringUp();
      await vi.waitFor(async () => expect((await states(dest)).every((r) => r.state === 'sent')).toBe(true), {
        timeout: 15_000,
      });
      expect(seqsReceived(fake, hook.id).sort()).toEqual([1, 2]);
    });

    it("keeps posting to the others while one destination's backlog waits out its backoff", async () => {
      const down = await addDestination('http://127.0.0.1:9/api/webhooks/1/closed-port');
      const seqs = Array.from({ length: 250 }, (_, i) => i + 1);
      await enqueue(down, seqs, Date.now() - 1_000);
      const hook = fake.createWebhook();
      const up = await addDestination(hook.url);
      await enqueue(up, [1000]);
      start();
      await vi.waitFor(async () => expect((await states(up))[0]!.state).toBe('sent'), { timeout: 10_000 });
      expect(seqsReceived(fake, hook.id)).toEqual([1000]);
    });

    it('gives a delivery up after its tenth attempt', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      fake.takeDown('503');
      await enqueue(dest, [1], Date.now(), 9);
      start();
      await vi.waitFor(async () => expect((await states(dest))[0]!.state).toBe('failed'), {
        timeout: 10_000,
      });
      expect((await states(dest))[0]).toMatchObject({ attempts: 10, last_error: 'HTTP 503' });
    });

    it('gives a delivery up when its find is more than a day old and it still fails', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      fake.takeDown('503');
      await enqueue(dest, [1], Date.now(), 0, Date.now() - 25 * 60 * 60_000);
      start();
      await vi.waitFor(async () => expect((await states(dest))[0]!.state).toBe('failed'), {
        timeout: 10_000,
      });
      expect((await states(dest))[0]).toMatchObject({ attempts: 1, last_error: 'HTTP 503' });
    });

    it('disables a destination whose webhook was deleted, with the reason', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      fake.deleteWebhook(hook.id);
      await enqueue(dest, [1]);
      start();
      await vi.waitFor(
        async () => {
          const row = await db
            .selectFrom('notification_destinations')
            .select(['enabled', 'disabled_reason'])
            .where('id', '=', dest)
            .executeTakeFirstOrThrow();
          expect(row).toEqual({ enabled: 0, disabled_reason: 'Unknown Webhook (404)' });
        },
        { timeout: 10_000 },
      );
      expect((await states(dest))[0]).toMatchObject({
        state: 'pending',
        last_error: 'HTTP 404: Unknown Webhook',
      });
    });

    it('posts each find once with two dispatchers on one database', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url, 'json');
      start('instance-a');
      start('instance-b');
      const seqs = Array.from({ length: 8 }, (_, i) => i + 1);
      for (const seq of seqs) await enqueue(dest, [seq]);
      await vi.waitFor(async () => expect((await states(dest)).every((r) => r.state === 'sent')).toBe(true), {
        timeout: 15_000,
      });
      expect(seqsReceived(fake, hook.id).sort((a, b) => a - b)).toEqual(seqs);
    });

    it('sends a test find and says how it went', async () => {
      const hook = fake.createWebhook();
      const row = {
        id: 1,
        name: 'Test',
        kind: 'discord',
        url: hook.url,
        include_join_data: 1,
        mention_role_id: null,
        mention_from_value: null,
      };
      expect(await sendTestFind(row, policy, null)).toEqual({ ok: true, status: 204 });
      expect(fake.received[0]!.body.embeds[0].title).toBe('Test pet (Send test)');
      fake.deleteWebhook(hook.id);
      expect(await sendTestFind(row, policy, null)).toEqual({
        ok: false,
        status: 404,
        error: 'Unknown Webhook (404)',
      });
      expect(await sendTestFind(row, { allowHosts: [], allowPrivate: false }, null)).toMatchObject({
        ok: false,
        status: null,
      });
    });
  });
}
