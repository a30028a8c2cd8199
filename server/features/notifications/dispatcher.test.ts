import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PetDiscovery } from '../../../common/fleet.ts';
import type { Db } from '../../db/index.ts';
import { type FakeDiscord, seqsReceived, startFakeDiscord } from '../../test/fake-discord.ts';
import { DIALECTS, openTestDatabase } from '../../test/helper.ts';
import { sendTestFind } from './destination-posts.ts';
import { type NotificationDispatcher, startNotificationDispatcher } from './dispatcher.ts';
import { valueTierOf } from './notification-outbox.ts';
import { RateLimiter } from './rate-limits.ts';

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

/** A destination as Send test reads it. */
const testDestination = (url: string) => ({
  id: 1,
  name: 'Test',
  kind: 'discord',
  url,
  include_join_data: 1,
  mention_role_id: null,
  mention_from_value: null,
});

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

    function start(
      instanceId = 'instance-a',
      timing: { answerTimeoutMs?: number; lateAnswerMs?: number } = {},
    ) {
      const dispatcher = startNotificationDispatcher({
        ...timing,
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

    async function addDestination(
      url: string,
      kind: 'discord' | 'json' = 'discord',
      over: Record<string, unknown> = {},
    ): Promise<number> {
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
          ...over,
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
      over: Partial<PetDiscovery> = {},
    ) {
      await db
        .insertInto('notification_outbox')
        .values(
          seqs.map((seq) => ({
            destination_id: destinationId,
            discovery_seq: seq,
            payload: JSON.stringify(find(seq, over)),
            value_tier: valueTierOf(find(seq, over).numericValue),
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

    it('retries while the fake is down, spending one attempt, and delivers once it is back', async () => {
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
      // While it is down the lane only asks whether it answers (a GET): the finds spend no attempts.
      const asked = fake.requests;
      await vi.waitFor(() => expect(fake.requests).toBeGreaterThan(asked + 1), { timeout: 10_000 });
      expect((await states(dest))[0]!.attempts).toBe(1);
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
      const dest = await addDestination(hook.url, 'discord', { max_age_seconds: 2 * 86_400 });
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

    it("a slow destination delays only itself: another's new find goes out while the slow one is still posting", async () => {
      const slow = fake.createWebhook();
      fake.setBehaviour(slow.id, { answerDelayMs: 3_000 });
      const slowDest = await addDestination(slow.url, 'json');
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      await enqueue(slowDest, [1, 2, 3]);
      await enqueue(dest, [10]);
      start();
      await vi.waitFor(async () => expect((await states(dest))[0]!.state).toBe('sent'), { timeout: 10_000 });
      await enqueue(dest, [11]);
      await vi.waitFor(async () => expect((await states(dest))[1]!.state).toBe('sent'), { timeout: 15_000 });
      // The slow endpoint has not taken all its finds yet: the fast one did not wait for it.
      expect((await states(slowDest)).filter((r) => r.state === 'pending').length).toBeGreaterThan(0);
      expect(seqsReceived(fake, hook.id)).toEqual([10, 11]);
    });

    it('takes an answer that comes after the time limit as delivered: each find is posted once', async () => {
      const hook = fake.createWebhook();
      const json = fake.createWebhook();
      fake.setBehaviour(hook.id, { answerDelayMs: 6_500 });
      fake.setBehaviour(json.id, { answerDelayMs: 6_500 });
      const discordDest = await addDestination(hook.url);
      const jsonDest = await addDestination(json.url, 'json');
      await enqueue(discordDest, [1]);
      await enqueue(jsonDest, [2]);
      start();
      await vi.waitFor(
        async () => {
          expect((await states(discordDest))[0]!.state).toBe('sent');
          expect((await states(jsonDest))[0]!.state).toBe('sent');
        },
        { timeout: 18_000 },
      );
      expect(seqsReceived(fake, hook.id)).toEqual([1]);
      expect(seqsReceived(fake, json.id)).toEqual([2]);
      const discordPost = fake.received.find((p) => p.webhookId === hook.id)!;
      // Discord is asked to confirm the message (?wait=true): its id is kept with the delivery.
      expect(discordPost.wait).toBe(true);
      const stored = await db
        .selectFrom('notification_outbox')
        .select(['id', 'remote_id' as never])
        .where('destination_id', '=', discordDest)
        .executeTakeFirstOrThrow();
      expect((stored as unknown as { remote_id: string }).remote_id).toBe(discordPost.messageId);
      // A JSON endpoint gets the delivery's id, the same on every try, to tell a repeat.
      const jsonPost = fake.received.find((p) => p.webhookId === json.id)!;
      const [jsonRow] = await db
        .selectFrom('notification_outbox')
        .select('id')
        .where('destination_id', '=', jsonDest)
        .execute();
      expect(jsonPost.headers['idempotency-key']).toBe(`scanline-delivery-${jsonRow!.id}`);
      expect(jsonPost.body.deliveryId).toBe(`scanline-delivery-${jsonRow!.id}`);
    }, 25_000);

    it('repeats a post that got no answer at all once, with the same payload, then backs off', async () => {
      const json = fake.createWebhook();
      fake.setBehaviour(json.id, { answerDelayMs: 60_000 });
      const dest = await addDestination(json.url, 'json');
      await enqueue(dest, [1]);
      start('instance-a', { answerTimeoutMs: 200, lateAnswerMs: 400 });
      await vi.waitFor(() => expect(fake.received.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      const [first, second] = fake.received;
      expect(first!.headers['idempotency-key']).toMatch(/^scanline-delivery-\d+$/);
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect(second!.body).toEqual(first!.body);
      // Only then is the delivery's try counted as failed, and the lane pauses (backs off).
      await vi.waitFor(async () => expect((await states(dest))[0]!.last_error).toMatch(/No answer/), {
        timeout: 5_000,
      });
      expect(fake.received.length).toBe(2);
    });

    it('catches up after an outage within seconds of the destination answering again, dearest tier first, newest first within it', async () => {
      const hook = fake.createWebhook();
      const dest = await addDestination(hook.url);
      fake.takeDown('reset');
      const now = Date.now();
      // Each has failed often before: their own backoff would be minutes long.
      await enqueue(dest, [1], now, 8, now - 30_000, { numericValue: 1_000_000 });
      await enqueue(dest, [2], now, 8, now - 20_000, { numericValue: 50_000_000 });
      await enqueue(dest, [3], now, 8, now - 5_000, { numericValue: 50_000_000 });
      await enqueue(dest, [4], now, 8, now - 1_000, { numericValue: 3_000_000 });
      // Cheaper than 2 and 3 but of their tier (10M/s to 100M/s), and newer: it goes first.
      await enqueue(dest, [5], now, 8, now - 2_000, { numericValue: 20_000_000 });
      start();
      await vi.waitFor(() => expect(fake.requests).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 500));
      fake.bringUp();
      await vi.waitFor(async () => expect((await states(dest)).every((r) => r.state === 'sent')).toBe(true), {
        timeout: 4_000,
      });
      expect(seqsReceived(fake, hook.id)).toEqual([5, 3, 2, 4, 1]);
    });

    it('drops a find older than the maximum age, counted; or posts it marked late when asked', async () => {
      const hook = fake.createWebhook();
      const dropping = await addDestination(hook.url);
      const marked = fake.createWebhook();
      const marking = await addDestination(marked.url, 'discord', { late_mode: 'mark' });
      const now = Date.now();
      // Premium channels (no delay) keep a find 60 s by default.
      await enqueue(dropping, [1], now, 0, now - 120_000);
      await enqueue(dropping, [2], now, 0, now - 1_000);
      await enqueue(marking, [3], now, 0, now - 120_000);
      start();
      await vi.waitFor(
        async () => {
          expect((await states(dropping)).map((r) => r.state)).toEqual(['dropped', 'sent']);
          expect((await states(marking))[0]!.state).toBe('sent');
        },
        { timeout: 10_000 },
      );
      expect(seqsReceived(fake, hook.id)).toEqual([2]);
      const embed = fake.received.find((p) => p.webhookId === marked.id)!.body.embeds[0];
      expect(embed.title).toMatch(/^Late \(found 2 min ago\): Pet 3$/);
    });

    it('disables a destination Discord answers 403 (or 401), with the reason', async () => {
      const forbidden = fake.createWebhook();
      const unauthorized = fake.createWebhook();
      fake.setBehaviour(forbidden.id, { refuse: 403 });
      fake.setBehaviour(unauthorized.id, { refuse: 401 });
      const a = await addDestination(forbidden.url);
      const b = await addDestination(unauthorized.url);
      await enqueue(a, [1, 2]);
      await enqueue(b, [3]);
      start();
      const reasonOf = async (id: number) =>
        db
          .selectFrom('notification_destinations')
          .select(['enabled', 'disabled_reason'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      await vi.waitFor(
        async () => {
          expect(await reasonOf(a)).toEqual({ enabled: 0, disabled_reason: 'Forbidden (403)' });
          expect(await reasonOf(b)).toEqual({ enabled: 0, disabled_reason: 'Unauthorized (401)' });
        },
        { timeout: 10_000 },
      );
      // One refused request each: no more counted toward Discord's ban.
      expect(fake.requests).toBe(2);
      expect((await states(a)).map((r) => r.state)).toEqual(['pending', 'pending']);
    });

    it('backs a destination off after repeated 429s, beyond what each one asks', async () => {
      const hook = fake.createWebhook();
      fake.setBehaviour(hook.id, { alwaysRateLimited: 0.05 });
      const dest = await addDestination(hook.url);
      await enqueue(dest, [1]);
      start();
      await new Promise((r) => setTimeout(r, 2_500));
      // Each 429 asked for 50 ms: obeying only that would be some 40 requests.
      expect(fake.rateLimited).toBeGreaterThanOrEqual(3);
      expect(fake.rateLimited).toBeLessThanOrEqual(6);
    });

    it('Send test waits out the rate limit the dispatcher learned, sending nothing', async () => {
      const hook = fake.createWebhook();
      const limits = new RateLimiter(Date.now);
      limits.observe(hook.url, {
        status: 429,
        headers: { 'retry-after': '30' },
        body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 30, global: false }),
      });
      const row = testDestination(hook.url);
      const result = await sendTestFind(row, policy, null, limits);
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toMatch(/Rate limited: try again in 30 s/);
      expect(fake.requests).toBe(0);
    });

    it('sends a test find and says how it went', async () => {
      const hook = fake.createWebhook();
      const row = testDestination(hook.url);
      expect(await sendTestFind(row, policy, null)).toEqual({ ok: true, status: 200 });
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
