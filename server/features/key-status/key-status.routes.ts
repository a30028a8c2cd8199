import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '../../../common/api-error.ts';
import { idField } from '../../../common/ids.ts';
import {
  GrantResetsResponseSchema,
  GrantResetsSchema,
  KeyStatusRequestSchema,
  KeyStatusResponseSchema,
  ResetHwidRefusedSchema,
  ResetHwidResponseSchema,
} from '../../../common/key-status.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { textField } from '../security/rate-limit-hooks.ts';
import { adminResetHwid, grantResets, keyStatus, NoResetLeftError, resetHwid } from './key-status.service.ts';

const ScriptKeyIdParamsSchema = z.object({ id: z.coerce.number().pipe(idField('id')) });

/**
 * My key: a buyer reads their key's status and resets its devices with the key alone (no session).
 * POST, so the key stays out of URLs and the request log (which logs no bodies). Limited per IP and
 * per key (RATE_LIMIT_KEY).
 */
export const keyStatusRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const rateLimit = app.rateLimitHooks('key', { keyOf: (request) => textField(request.body, 'key') });

  app.post(
    '/api/script/key-status',
    {
      schema: {
        summary: "A buyer's own script key: type, status, expiry, devices (ids masked) and resets left",
        body: KeyStatusRequestSchema,
        response: responses({ 200: KeyStatusResponseSchema }),
      },
      preHandler: rateLimit,
    },
    async (request) => keyStatus(ctx, request.body.key),
  );

  app.post(
    '/api/script/reset-hwid',
    {
      schema: {
        summary: "Remove every device bound to a buyer's script key (weekly budget plus granted resets)",
        body: KeyStatusRequestSchema,
        // 429: no reset left (with nextResetAt), or too many calls (the rate limit's {error}).
        response: responses({
          200: ResetHwidResponseSchema,
          429: z.union([ResetHwidRefusedSchema, ApiErrorSchema]),
        }),
      },
      preHandler: rateLimit,
    },
    async (request, reply) => {
      try {
        return await resetHwid(ctx, request.body.key, { by: 'buyer', ip: request.ip });
      } catch (error) {
        if (!(error instanceof NoResetLeftError)) throw error;
        return reply.status(429).send({ error: error.message, nextResetAt: error.nextResetAt });
      }
    },
  );

  app.post(
    '/api/admin/script-keys/:id/grant-resets',
    {
      schema: {
        summary: 'Grant a script key extra device resets beyond the weekly budget',
        params: ScriptKeyIdParamsSchema,
        body: GrantResetsSchema,
        response: responses({ 200: GrantResetsResponseSchema }),
      },
    },
    async (request) => grantResets(ctx, request.params.id, request.body.count, { ip: request.ip }),
  );

  app.post(
    '/api/admin/script-keys/:id/reset-hwid',
    {
      schema: {
        summary: "Remove every device bound to a script key, spending none of the buyer's resets",
        params: ScriptKeyIdParamsSchema,
        response: responses({ 200: ResetHwidResponseSchema }),
      },
    },
    async (request) => adminResetHwid(ctx, request.params.id, { ip: request.ip }),
  );
};
