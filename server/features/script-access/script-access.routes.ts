import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChallengeRequestSchema, RedeemRequestSchema } from '../../../common/script-access.ts';
import type { FeatureOptions } from '../../context.ts';
import { issueChallenge } from './challenge.service.ts';
import { redeemCode } from './redeem.service.ts';

/**
 * What script users' executors call besides the loader (no session): redeem a code for a script key
 * bound to their device, and ask for a challenge nonce. Answers are JSON, refusals `{error}`.
 */
export const scriptAccessRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.post(
    '/api/script/redeem',
    { schema: { body: RedeemRequestSchema }, preHandler: app.rateLimitHooks('redeem') },
    async (request) => redeemCode(ctx, request.body, { ip: request.ip }),
  );

  app.post(
    '/api/script/challenge',
    { schema: { body: ChallengeRequestSchema }, preHandler: app.rateLimitHooks('challenge') },
    async (request) => issueChallenge(ctx, app.pendingWrites, request.body, { ip: request.ip }),
  );
};
