import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DatabaseUnavailableError } from '../db/batch-writer.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { HttpError } from '../http-error.ts';

export const DATABASE_UNAVAILABLE_TEXT = 'The database is unavailable right now: try again in a few seconds';

/** Every error leaves as `{error}` JSON: 4xx with what is wrong, 500 without internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => {
        const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return { path, message: v.message ?? 'is invalid' };
      });
      const first = issues[0];
      const where = err.validationContext === 'body' ? '' : `${err.validationContext} `;
      const error = first
        ? first.path
          ? `${where}${first.path}: ${first.message}`
          : `${where}${first.message}`.trim()
        : 'Invalid request';
      return reply.status(400).send({ error, issues });
    }
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ error: err.message });
    // The database is away (a restart, failover, a locked file): the client may try again shortly.
    if (err instanceof DatabaseUnavailableError || isDatabaseUnavailable(err)) {
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      return reply.status(503).header('retry-after', 5).send({ error: DATABASE_UNAVAILABLE_TEXT });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ error: err.message });
    // With what was asked: at info there is no other line for this request (plugins/request-log.ts).
    request.log.error({ err, req: request }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}
