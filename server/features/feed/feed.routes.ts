import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type FeedResponse, FeedResponseSchema } from '../../../common/fleet.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { onScriptKeyChanged } from '../licensing/script-key-events.ts';
import { textField } from '../security/rate-limit-hooks.ts';
import { feedProtocol } from './feed.protocol.ts';
import { Feed, MAX_FEED_WAIT_SECONDS } from './feed.service.ts';
import type { FeedSocket } from './feed-socket.ts';
import { FeedSocketCaps } from './feed-socket-caps.ts';

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be given once` })
    .min(1, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`)
    .optional();

const cursorField = z.coerce
  .number({ error: 'since must be a number (the cursor of the previous answer)' })
  .int('since must be a whole number')
  .min(0, 'since must be 0 or more');

/** `since`: a cursor, or `now` (the same as leaving it out: start at the present). */
const sinceField = z.preprocess((value) => (value === 'now' ? undefined : value), cursorField.optional());

const FeedQuerySchema = z.object({
  since: sinceField,
  key: optionalText('key'),
  hwid: optionalText('hwid'),
  wait: z.coerce
    .number({ error: 'wait must be a number of seconds' })
    .int('wait must be a whole number of seconds')
    .min(0, `wait must be between 0 and ${MAX_FEED_WAIT_SECONDS} seconds`)
    .max(MAX_FEED_WAIT_SECONDS, `wait must be between 0 and ${MAX_FEED_WAIT_SECONDS} seconds`)
    .default(0),
});

const FeedSocketQuerySchema = z.object({
  since: sinceField,
  key: optionalText('key'),
  hwid: optionalText('hwid'),
});

/** The X-Hardware-Id header, when the query has no hwid (as the loader reads it). */
function hardwareIdOf(request: FastifyRequest, fromQuery: string | undefined): string | undefined {
  if (fromQuery !== undefined) return fromQuery;
  const header = request.headers['x-hardware-id'];
  return typeof header === 'string' && header.length > 0 && header.length <= 200 ? header : undefined;
}

/**
 * The discovery feed script users run: GET /api/script/feed (a cursor, optionally long-polled) and
 * the socket /ws/feed. The tier comes from the key, checked as the loader checks it; what a tier may
 * see is decided here, never by the script.
 */
export const feedRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const feed = new Feed(ctx, app.pendingWrites, () => ctx.services.fleet.discoveries);
  const sockets = new Set<FeedSocket>();
  const keyOf = (request: FastifyRequest) => textField(request.query, 'key');
  const rateLimit = app.rateLimitHooks('feed', { keyOf });
  // A premium script long-polls and asks again after every answer, many times a minute on a busy
  // fleet: a poll from a device a usable PREMIUM key is bound to counts against RATE_LIMIT_FEED_PREMIUM,
  // on counters of its own, so the free tier's limit (and its counters) stay as they are.
  const [premiumLimit] = app.rateLimitHooks('feed', {
    keyOf,
    limit: { max: ctx.config.RATE_LIMIT_FEED_PREMIUM, counters: 'feed-premium' },
  });
  const [freeLimit] = rateLimit;
  const pollLimit: preHandlerHookHandler = function (request, reply, done) {
    const key = keyOf(request);
    const premium =
      key !== undefined && feed.holdsPremium(key, hardwareIdOf(request, textField(request.query, 'hwid')));
    const limit = premium ? premiumLimit : freeLimit;
    limit?.call(this, request, reply, done);
  };

  const caps = new FeedSocketCaps<FeedSocket>({
    perAddress: ctx.config.FEED_SOCKETS_PER_ADDRESS,
    perKey: ctx.config.FEED_SOCKETS_PER_KEY,
  });

  // One subscription for every socket of this instance; each find is serialised once per tier. The
  // feed remembers the last minutes of finds for what the free tier holds back.
  const unsubscribeStream = ctx.services.fleet.discoveries.onDiscovery((discovery) => {
    const frames = feed.remember(discovery);
    for (const socket of sockets) socket.receive(frames);
  });

  // A key switched off, deleted or with a device revoked: its open sockets are checked again now.
  const unsubscribe = onScriptKeyChanged(ctx, (scriptKey) => {
    for (const socket of sockets) {
      // A socket opened with a license key holds that text: compared as the script key it stands for.
      if (socket.key !== undefined && feed.scriptKeyOf(socket.key) === scriptKey) void socket.recheck();
    }
  });
  // Back from a Redis outage, a change may have been missed: every socket is checked again.
  const unsubscribeResync = ctx.bus.onResync(() => {
    for (const socket of sockets) void socket.recheck();
  });

  // The socket /ws/feed, on the realtime transport (which pings it and, each sweep, has the key
  // checked again: switched off or expired, the socket closes).
  ctx.services.transport.registerProtocol(
    feedProtocol(ctx, {
      open: sockets,
      caps,
      feed,
      querySchema: FeedSocketQuerySchema,
      hardwareIdOf,
      rateLimit,
    }),
  );

  // Before the listener closes, which waits for requests in flight: long polls answer now.
  app.addHook('preClose', async () => feed.endWaits());
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeResync();
    unsubscribeStream();
    for (const socket of sockets) socket.dispose();
    feed.close();
  });

  app.get(
    '/api/script/feed',
    // A long poll waits up to `wait` seconds by design: kept out of the health report's request timings.
    {
      schema: { querystring: FeedQuerySchema, response: responses({ 200: FeedResponseSchema }) },
      preHandler: pollLimit,
      config: { skipRequestTiming: true },
    },
    async (request, reply): Promise<FeedResponse | undefined> => {
      reply.header('cache-control', 'no-store');
      const { since, key, wait } = request.query;
      const access = await feed.tierOf({
        key,
        hwid: hardwareIdOf(request, request.query.hwid),
        ip: request.ip,
      });
      if (access.kind === 'refused') {
        reply.status(access.status).send({ error: access.error });
        return;
      }
      // The client hanging up ends its long-poll rather than holding a subscription for 25 s.
      const left = new AbortController();
      const onClose = () => left.abort();
      request.raw.once('close', onClose);
      try {
        // No since (or since=now): start at the present, with the last minute for context.
        const answer = await feed.read(since ?? 'now', access.tier, wait * 1000, left.signal);
        ctx.services.metrics.feedDelivered('poll', access.tier, answer.discoveries.length);
        return { ...answer, keyExpiresAt: access.keyExpiresAt };
      } finally {
        request.raw.off('close', onClose);
      }
    },
  );
};
