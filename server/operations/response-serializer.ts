import type { FastifyBaseLogger, FastifySerializerCompiler } from 'fastify';
import { createSerializerCompiler, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';

type ResponseSchema = $ZodType | { properties: $ZodType };

export interface ResponseSerializerOptions {
  /**
   * True in development and tests: an answer that does not match its schema throws (a 500 the test
   * sees). False in production: the mismatch is logged at error level, once per route and status,
   * and the answer leaves as the handler built it; a wrong schema must not take a working call down.
   */
  strict: boolean;
  log: FastifyBaseLogger;
}

/** Serializes every answer by its route's zod response schema (unknown fields stripped). */
export function responseSerializerCompiler(
  options: ResponseSerializerOptions,
): FastifySerializerCompiler<ResponseSchema> {
  const zodCompiler = createSerializerCompiler();
  const reported = new Set<string>();
  return (route) => {
    const serialize = zodCompiler(route);
    if (options.strict) return serialize;
    const where = `${route.method} ${route.url} ${route.httpStatus}`;
    return (data) => {
      try {
        return serialize(data);
      } catch (error) {
        if (!isResponseSerializationError(error)) throw error;
        if (!reported.has(where)) {
          reported.add(where);
          options.log.error(
            { route: where, issues: error.cause.issues },
            'an answer does not match its response schema: sent unchecked (reported once per route)',
          );
        }
        return JSON.stringify(data);
      }
    };
  };
}

/** Strict everywhere but production (NODE_ENV=production). */
export const strictResponses = (): boolean => process.env.NODE_ENV !== 'production';
