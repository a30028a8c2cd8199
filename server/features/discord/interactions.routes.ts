import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DISCORD_INTERACTIONS_PATH } from '../../../common/discord.ts';
import type { FeatureOptions } from '../../context.ts';
import { badRequest, HttpError } from '../../http-error.ts';
import { responses } from '../../plugins/responses.ts';
import { DISCORD_TEXTS, ephemeral } from './discord-answers.ts';
import { getDiscordSettings } from './discord-settings.ts';
import { CALLBACK_TYPE, INTERACTION_TYPE, InteractionSchema } from './interaction.schema.ts';
import { checkInteractionSignature } from './interaction-signature.ts';

/** Discord's interactions are small JSON objects; anything bigger is not one. */
const INTERACTION_BODY_LIMIT = 64 * 1024;

/**
 * Per IP. All of a guild's commands come from Discord's few addresses, so this is far above what a
 * busy guild sends; it only keeps a flood of forged posts from costing a signature check each.
 */
const INTERACTION_CALLS_PER_MINUTE = 1200;

/** Seconds Discord (or whoever set the URL) is told to wait while no public key is configured. */
const NOT_CONFIGURED_RETRY_AFTER_S = 300;

const InteractionAnswerSchema = z
  .object({
    type: z.number().int(),
    data: z
      .object({
        content: z.string().optional(),
        flags: z.number().int().optional(),
        allowed_mentions: z.object({ parse: z.array(z.string()) }).optional(),
      })
      .optional(),
  })
  .meta({ id: 'DiscordInteractionAnswer' });

/** The first problem zod found, as "path: message". */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the interaction is not valid';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * Discord's HTTP interactions (no gateway): each post is verified against the application's public
 * key before anything else (401 otherwise, which Discord also checks when the URL is saved), a PING
 * is answered PONG, a slash command by the interaction desk. Discord calls it, so no Origin check
 * applies (the route is not under /api/admin).
 */
export const interactionsRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  // Its own scope: the signature covers the exact bytes, so this route alone takes its body raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: INTERACTION_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    DISCORD_INTERACTIONS_PATH,
    {
      schema: {
        summary:
          "Discord's slash commands (Ed25519-signed by the application's key): PING answered PONG, commands answered ephemerally or deferred (401 bad signature, 503 no public key set)",
        response: responses({ 200: InteractionAnswerSchema }),
      },
      bodyLimit: INTERACTION_BODY_LIMIT,
      config: { rateLimit: { max: INTERACTION_CALLS_PER_MINUTE, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const settings = await getDiscordSettings(ctx);
      if (settings.publicKey === null) {
        reply.header('retry-after', String(NOT_CONFIGURED_RETRY_AFTER_S));
        throw new HttpError(503, DISCORD_TEXTS.notConfigured);
      }
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const checked = checkInteractionSignature(
        settings.publicKey,
        { signature: header('x-signature-ed25519'), timestamp: header('x-signature-timestamp') },
        body,
        ctx.now(),
      );
      if (!checked.ok) throw new HttpError(401, checked.reason);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw badRequest('the body is not JSON: an interaction is a JSON object');
      }
      const parsed = InteractionSchema.safeParse(json);
      if (!parsed.success) throw badRequest(firstIssue(parsed.error));
      const interaction = parsed.data;
      if (interaction.type === INTERACTION_TYPE.ping) return { type: CALLBACK_TYPE.pong };
      if (interaction.type !== INTERACTION_TYPE.applicationCommand || !interaction.data) {
        return { type: CALLBACK_TYPE.message, data: ephemeral(DISCORD_TEXTS.unsupported) };
      }
      const userId = interaction.member?.user.id ?? interaction.user?.id;
      if (userId === undefined) throw badRequest('the interaction names no user (member.user or user)');
      return ctx.services.discordDesk.answer(interaction.data.name, {
        interaction,
        userId,
        guildId: interaction.guild_id ?? null,
        settings,
        origin: ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`,
        ip: request.ip,
      });
    },
  );
};
