import { describe, expect, it } from 'vitest';
import { PREMIUM_SCRIPT_FILE } from '../../common/public-defaults.ts';
import type { DialectName } from '../db/index.ts';
import { insertTestScriptKey } from '../test/fixtures.ts';
import { buildTestApp, DIALECTS } from '../test/helper.ts';

const DEBUG = 20;

/** An app logging at debug, the level with a line per request, into `lines`. */
async function appLoggingEveryRequest(dialect: DialectName) {
  const lines: string[] = [];
  const t = await buildTestApp(
    dialect,
    {},
    { app: { logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } } } },
  );
  return { t, lines };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the request log`, () => {
    it('keeps script keys, hardware ids, nonces and signatures out of the log lines', async () => {
      const { t, lines } = await appLoggingEveryRequest(dialect);
      try {
        const { scriptKey } = await insertTestScriptKey(t);
        const hwidInQuery = 'HWID-IN-QUERY-5d1c';
        const hwidInHeader = 'HWID-IN-HEADER-93fa';
        const secrets = [scriptKey, hwidInQuery, hwidInHeader, 'NONCE-77aa', 'SIG-0b3e'];
        await t.app.inject({
          method: 'GET',
          url: `/api/script/loader?script=${PREMIUM_SCRIPT_FILE}&key=${scriptKey}&hwid=${hwidInQuery}`,
        });
        await t.app.inject({
          method: 'GET',
          url: `/api/script/loader?script=${PREMIUM_SCRIPT_FILE}&key=${scriptKey}`,
          headers: { 'x-hardware-id': hwidInHeader },
        });
        await t.app.inject({
          method: 'GET',
          url: `/api/script/loader?script=${PREMIUM_SCRIPT_FILE}&key=${scriptKey}&hwid=${hwidInQuery}&nonce=NONCE-77aa&sig=SIG-0b3e`,
        });
        // Percent-encoded names are what the server reads too.
        await t.app.inject({ method: 'GET', url: `/api/script/loader?script=x.lua&%6Bey=${scriptKey}` });

        const log = lines.join('');
        expect(log).toContain(`GET /api/script/loader?script=${PREMIUM_SCRIPT_FILE}&key=[redacted]`);
        for (const secret of secrets) expect(log).not.toContain(secret);
        // What the log is for stays: which script was asked for, and that a key came along.
        expect(log).toContain(
          `/api/script/loader?script=${PREMIUM_SCRIPT_FILE}&key=[redacted]&hwid=[redacted]`,
        );
        expect(log).toContain('&nonce=[redacted]&sig=[redacted]');
      } finally {
        await t.close();
      }
    });

    it('writes one line per request at debug, with what was asked, the answer and its time', async () => {
      const { t, lines } = await appLoggingEveryRequest(dialect);
      try {
        await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' });
        await t.app.inject({ method: 'GET', url: '/no/such/page' });
        // The probes keep their own level (warn): not a line even at debug.
        await t.app.inject({ method: 'GET', url: '/healthz' });
        const requestLines = lines.map((line) => JSON.parse(line)).filter((l) => l.reqId !== undefined);
        expect(requestLines.map((l) => [l.level, l.msg])).toEqual([
          [DEBUG, expect.stringMatching(/^GET \/api\/public\/purchase-info 200 \([\d.]+ ms\)$/)],
          [DEBUG, expect.stringMatching(/^GET \/no\/such\/page 404 \([\d.]+ ms\)$/)],
        ]);
        expect(requestLines[0]).toMatchObject({
          req: { method: 'GET', url: '/api/public/purchase-info' },
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        });
      } finally {
        await t.close();
      }
    });
  });
}
