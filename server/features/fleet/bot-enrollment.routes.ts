import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EnrollBotRequestSchema, EnrollBotResponseSchema } from '../../../common/bot-enrollment.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { enrollBot } from './bot-enrollment.service.ts';
import { botCallerOf, requireBotToken } from './bot-token.ts';

/**
 * POST /api/bot/enroll {ghostId}: the enrollment secret (the shared bot token) or the bot's current
 * botToken in `Authorization: Bearer`, limited per address (RATE_LIMIT_BOT_ENROLL); 201 {ghostId,
 * botToken}. The rules: bot-enrollment.service.ts and docs/rules-fleet.md, "Bot credentials".
 */
export const botEnrollmentRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/bot/enroll',
    {
      // onRequest, before the body is read: a caller without the secret learns nothing else.
      onRequest: requireBotToken(ctx, { enrollment: true }),
      preHandler: app.rateLimitHooks('bot_enroll'),
      schema: {
        summary: 'Enroll a bot: its own botToken for the shared one (or for its current one)',
        body: EnrollBotRequestSchema,
        response: responses({ 201: EnrollBotResponseSchema }),
      },
    },
    async (request, reply) => {
      const caller = await botCallerOf(ctx, request);
      const enrolled = await enrollBot(ctx, caller, request.body.ghostId, request.ip ?? null);
      return reply.status(201).header('cache-control', 'no-store').send(enrolled);
    },
  );
};
