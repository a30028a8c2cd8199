import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChallengeRequestSchema,
  ChallengeResponseSchema,
  RedeemRequestSchema,
  RedeemResponseSchema,
  RenewResponseSchema,
} from '../../../common/script-access.ts';
import type { FeatureOptions } from '../../context.ts';
import { responses } from '../../plugins/responses.ts';
import { textField } from '../security/rate-limit-hooks.ts';
import { issueChallenge } from './challenge.service.ts';
import { redeemCode } from './redeem.service.ts';

/**
 * What script users' executors call besides the loader (no session): redeem a code for a script key
 * bound to their device, and ask for a challenge nonce. Answers are JSON, refusals `{error}`.
 */
export const scriptAccessRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/script/redeem',
    {
      schema: {
        body: RedeemRequestSchema,
        // A new key, or (with `key`) the renewed key's new expiry.
        response: responses({ 200: z.union([RedeemResponseSchema, RenewResponseSchema]) }),
      },
      preHandler: app.rateLimitHooks('redeem', {
        // Redemption upper-cases the code, so 'abc' and 'ABC' are one code and share one count.
        keyOf: (request) => textField(request.body, 'code')?.toUpperCase(),
      }),
    },
    async (request) => redeemCode(ctx, request.body, { ip: request.ip }),
  );

  app.post(
    '/api/script/challenge',
    {
      schema: { body: ChallengeRequestSchema, response: responses({ 200: ChallengeResponseSchema }) },
      preHandler: app.rateLimitHooks('challenge', { keyOf: (request) => textField(request.body, 'key') }),
    },
    async (request) => issueChallenge(ctx, app.pendingWrites, request.body, { ip: request.ip }),
  );
};
