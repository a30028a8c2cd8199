import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { randomToken, secretsEqual, sha256 } from '../auth/secret.ts';
import { countLiveBotTokens, insertBotTokenHash, isLiveBotTokenHash } from './bot-token.store.ts';

/*
 * Scanner bots authenticate with a bot token: BOT_TOKEN, or (when unset) one generated on first
 * start, stored as its SHA-256 and written once to BOT_TOKEN_FILE (mode 0600) so the simulator on
 * the same machine finds it with no configuration. Bots send it as `Authorization: Bearer <token>`,
 * or as `?token=` on a socket upgrade from an executor that cannot set headers.
 */

export const BOT_TOKEN_TEXTS = {
  missing: 'Bot token required: send Authorization: Bearer <token>',
  invalid: 'Invalid bot token',
} as const;

/** Makes sure bots have a token; returns the generated one (and where it was written) on the start that made it. */
export async function ensureBotToken(
  ctx: AppContext,
): Promise<{ generated: string | null; file: string | null }> {
  if (ctx.config.BOT_TOKEN) return { generated: null, file: null };
  if ((await countLiveBotTokens(ctx.db)) > 0) return { generated: null, file: null };
  const token = randomToken(32);
  if (!(await insertBotTokenHash(ctx.db, sha256(token), 'generated', ctx.now()))) {
    return { generated: null, file: null };
  }
  const file = ctx.config.BOT_TOKEN_FILE;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; an old file keeps its own otherwise.
  await chmod(file, 0o600);
  return { generated: token, file };
}

/** How long a token found in the database is trusted without asking again (admins revoke rarely). */
const VERIFIED_TTL_MS = 60_000;
const verified = new Map<string, number>();

/** Whether `token` is a live bot token. BOT_TOKEN compares in constant time; stored tokens by hash. */
export async function isBotToken(ctx: AppContext, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  if (ctx.config.BOT_TOKEN) return secretsEqual(token, ctx.config.BOT_TOKEN);
  const hash = sha256(token);
  const now = ctx.now();
  if ((verified.get(hash) ?? 0) > now) return true;
  if (!(await isLiveBotTokenHash(ctx.db, hash))) return false;
  if (verified.size > 1000) verified.clear();
  verified.set(hash, now + VERIFIED_TTL_MS);
  return true;
}

/** The token a request carries: the Authorization bearer, else `?token=`. */
export function botTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.token === 'string' ? query.token : undefined;
}

/**
 * preHandler for the bot's HTTP calls (events, server pool): 401 JSON without a valid token.
 *
 *     app.post('/api/bot/events', { preHandler: requireBotToken(ctx) }, …)
 */
export function requireBotToken(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = botTokenOf(request);
    if (token === undefined) return void reply.status(401).send({ error: BOT_TOKEN_TEXTS.missing });
    if (!(await isBotToken(ctx, token)))
      return void reply.status(401).send({ error: BOT_TOKEN_TEXTS.invalid });
  };
}
