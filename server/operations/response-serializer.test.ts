import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.ts';

/** An app with one route whose handler answers `answer`, serialized by `{ total: number }`. */
async function appAnswering(answer: unknown, strict: boolean) {
  const lines: { level: number; msg: string; route?: string }[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = Fastify({ loggerInstance: log });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ strict, log: app.log }));
  app.get('/total', { schema: { response: { 200: z.object({ total: z.number() }) } } }, async () => answer);
  await app.ready();
  return { app, lines };
}

describe('answers serialized by their response schema', () => {
  it('strips fields the schema does not name', async () => {
    const { app } = await appAnswering({ total: 3, secret: 'hash' }, true);
    const response = await app.inject('/total');
    expect(response.json()).toEqual({ total: 3 });
    await app.close();
  });

  it('fails loudly in development and tests: an answer off its schema is a 500', async () => {
    const { app } = await appAnswering({ total: 'three' }, true);
    expect((await app.inject('/total')).statusCode).toBe(500);
    await app.close();
  });

  it('in production answers all the same, and logs the mismatch at error level once per route', async () => {
    const { app, lines } = await appAnswering({ total: 'three' }, false);
    for (let i = 0; i < 3; i++) {
      const response = await app.inject('/total');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ total: 'three' });
    }
    const reports = lines.filter((line) => line.msg.includes('does not match its response schema'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ level: 50, route: 'GET /total 200' });
    await app.close();
  });
});
