import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS, TEST_BOT_TOKEN, useTestApp } from '../../test/helper.ts';
import { ensureBotToken } from './bot-token.ts';

/** Opens a socket as a bot; resolves 'open' or the refusal status. */
function connectBot(url: string, headers: Record<string, string> = {}): Promise<string | number> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve) => {
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve('error'));
  });
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: bot tokens`, () => {
    describe('generated on first start', () => {
      const t = useTestApp(dialect, { listen: true, env: { BOT_TOKEN: '' } });

      it('writes the token once, readable by its owner only, and lets a bot with it open a socket', async () => {
        const file = t.ctx.config.BOT_TOKEN_FILE;
        const token = readFileSync(file, 'utf8').trim();
        expect(token).toMatch(/^[\w-]{43}$/);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        // The app's start generated it; a later start keeps it and writes nothing.
        expect(await ensureBotToken(t.ctx)).toEqual({ generated: null, file: null });

        expect(await connectBot(t.socketUrl, { authorization: `Bearer ${token}` })).toBe('open');
        expect(await connectBot(`${t.socketUrl}?token=${encodeURIComponent(token)}`)).toBe('open');
        expect(await connectBot(t.socketUrl, { authorization: 'Bearer not-the-token' })).toBe(401);
        expect(await connectBot(t.socketUrl)).toBe(401);
      });
    });

    describe('BOT_TOKEN', () => {
      const t = useTestApp(dialect, { listen: true });

      it('is the token bots present; nothing is generated', async () => {
        expect(await ensureBotToken(t.ctx)).toEqual({ generated: null, file: null });
        expect(await connectBot(t.socketUrl, { authorization: `Bearer ${TEST_BOT_TOKEN}` })).toBe('open');
        expect(await connectBot(t.socketUrl, { authorization: `Bearer ${TEST_BOT_TOKEN}x` })).toBe(401);
      });
    });
  });
}
