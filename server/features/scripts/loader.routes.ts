import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureOptions } from '../../context.ts';
import { getScriptForLoader } from './loader.service.ts';
import { loaderRefusalChunk } from './loader-response.ts';
import { LoaderQuerySchema } from './script-params.ts';

/**
 * GET /api/script/loader?script=NAME: what `loadstring(game:HttpGet(url))()` runs. Every answer,
 * refusals included, is plain Lua, because the executor runs whatever comes back.
 */
export const loaderRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  app.get('/api/script/loader', async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    // Validated here rather than by the route schema, whose refusal would be JSON.
    const query = LoaderQuerySchema.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      const field = String(issue?.path[0] ?? 'script');
      const given = (request.query as Record<string, unknown> | undefined)?.[field];
      const problem =
        given === undefined
          ? `${field} is required`
          : Array.isArray(given)
            ? `${field} must be given once`
            : `${field}: ${issue?.message ?? 'is invalid'}`;
      return reply.status(400).send(loaderRefusalChunk(`Bad loader request: ${problem}`));
    }
    const answer = await getScriptForLoader(ctx, query.data);
    if (answer.kind === 'refused')
      return reply.status(answer.status).send(loaderRefusalChunk(answer.message));
    return reply.status(200).send(Buffer.from(answer.content, 'utf8'));
  });
};
