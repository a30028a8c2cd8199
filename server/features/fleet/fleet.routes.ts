import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  BotEventsRequestSchema,
  BotEventsResponseSchema,
  BotMessageSchemas,
  type BotMessageType,
  type ConfigAckPayloadSchema,
} from '../../../common/fleet.ts';
import type { AppContext, FeatureOptions } from '../../context.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { responses } from '../../plugins/responses.ts';
import { describeIssue } from '../../realtime/frames.ts';
import { botSpokenFor } from './bot-credentials.ts';
import { refuseOverBudget } from './bot-event-budget.ts';
import { botCallerOf, requireBotToken } from './bot-token.ts';
import { FLEET_SWEEP_EVERY_MS, FLEET_TEXTS } from './fleet.service.ts';
import { forgetSilentBots } from './fleet-removal.service.ts';
import { toBotFrames } from './http-bot-frames.ts';

/**
 * Runs the app's fleet (ctx.services.fleet) on the root instance: it loads what the database holds
 * when the app is ready, and writes what is queued when it closes.
 */
export function registerFleet(app: FastifyInstance, ctx: AppContext): void {
  const { fleet, enrolledBots } = ctx.services;
  // The enrolled ids first: they decide the places of the bots the fleet loads and hears from.
  app.addHook('onReady', async () => {
    await enrolledBots.start();
    await fleet.start();
  });
  app.addHook('onClose', async () => {
    enrolledBots.close();
    await fleet.close();
  });
  // Hops and discoveries past FLEET_RETENTION_DAYS, when the app is ready and every hour after.
  schedulePeriodicSweep(app, {
    name: 'fleet events past their retention',
    everyMs: FLEET_SWEEP_EVERY_MS,
    run: (stopped) => fleet.prune(stopped),
  });
  // Bots silent past FLEET_FORGET_AFTER_DAYS, the same way the administrator removes one.
  schedulePeriodicSweep(app, {
    name: 'bots silent past FLEET_FORGET_AFTER_DAYS',
    everyMs: FLEET_SWEEP_EVERY_MS,
    run: (stopped) => forgetSilentBots(ctx, stopped),
  });
}

type ConfigAck = z.infer<typeof ConfigAckPayloadSchema>;
type CheckedEvent = { type: BotMessageType; payload: unknown };

/** Validates every event of a batch; the first bad one is named by its index and field. */
function checkEvents(
  ghostId: string,
  events: z.infer<typeof BotEventsRequestSchema>['events'],
): { ok: true; events: CheckedEvent[] } | { ok: false; error: string } {
  const checked: CheckedEvent[] = [];
  for (const [index, event] of events.entries()) {
    if (!Object.hasOwn(BotMessageSchemas, event.type)) {
      return { ok: false, error: `events.${index}.type: Unknown bot message type: ${event.type}` };
    }
    const type = event.type as BotMessageType;
    const parsed = BotMessageSchemas[type].safeParse(event.payload);
    if (!parsed.success) {
      return { ok: false, error: `events.${index}.payload.${describeIssue(parsed.error)}` };
    }
    // One batch speaks for one bot: a hello naming another would register it under this one's name.
    if (type === 'hello' && (parsed.data as { ghostId: string }).ghostId !== ghostId) {
      return {
        ok: false,
        error: `events.${index}.payload.ghostId: must be the batch's ghostId (${ghostId})`,
      };
    }
    checked.push({ type, payload: parsed.data });
  }
  return { ok: true, events: checked };
}

/**
 * POST /api/bot/events: a batch of bot messages from a bot that cannot hold a socket. The whole
 * batch is validated before any of it is applied, so a bad event leaves nothing half-written. The
 * answer carries the frames waiting for the bot (http-bot-frames.ts), so it gets its configuration
 * and emergency stops without a socket.
 */
export const fleetRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/bot/events',
    {
      // onRequest, before the body is validated: a caller without the token learns nothing else.
      onRequest: requireBotToken(ctx),
      schema: { body: BotEventsRequestSchema, response: responses({ 200: BotEventsResponseSchema }) },
    },
    async (request, reply) => {
      // The bot's own credential names it; the shared token (BOT_TOKEN_LEGACY) names it in the body.
      const spoken = await botSpokenFor(ctx, await botCallerOf(ctx, request), request.body.ghostId);
      if (!spoken.ok) return reply.status(spoken.status).send({ error: spoken.error });
      const { ghostId } = spoken;
      // Before anything is applied: a refused batch leaves nothing behind (bot-event-budget.ts).
      const refusal = refuseOverBudget(ctx, ghostId, request.body.events.length);
      if (refusal)
        return reply.status(429).header('retry-after', refusal.retryAfter).send({ error: refusal.error });
      const checked = checkEvents(ghostId, request.body.events);
      if (!checked.ok) return reply.status(400).send({ error: checked.error });
      if (!ctx.services.fleet.hasRoomFor(ghostId))
        return reply.status(409).send({ error: FLEET_TEXTS.full(ctx.config.FLEET_MAX_BOTS) });
      // The database is behind or away and the writer is full: the bot sends the batch again later.
      if (!ctx.services.fleet.hasRoomForEvents(checked.events.length)) {
        return reply.status(429).header('retry-after', 5).send({ error: FLEET_TEXTS.writerFull });
      }
      // Answered once every row of the batch is committed: what is acknowledged survives a crash.
      const { results, refused } = await ctx.services.fleet.acceptAll(ghostId, checked.events);
      if (refused) {
        const { result } = refused;
        if (!result.ok) {
          if (result.retryAfterSeconds) reply.header('retry-after', result.retryAfterSeconds);
          return reply.status(result.status).send({ error: `events.${refused.index}: ${result.error}` });
        }
      }
      const { httpBotFrames } = ctx.services;
      for (const event of checked.events) {
        if (event.type === 'config_ack')
          await httpBotFrames.configAcknowledged(ghostId, event.payload as ConfigAck);
      }
      // After its acks: a version just acknowledged is not handed over again.
      const frames = toBotFrames(await httpBotFrames.handOver(ghostId), ctx.now());
      return {
        accepted: results.length,
        results: results.map((result, index) => {
          const { ok: _ok, ...rest } = result;
          const id = request.body.events[index]?.id;
          return { index, ...(id === undefined ? {} : { id }), ...rest };
        }),
        frames,
      };
    },
  );
};
