import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../../common/ai-health.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../../test/helper.ts';
import { upsertOpenFinding } from '../analysis/analysis.store.ts';
import { botsReport } from '../bots-heard.fixtures.ts';

interface SeenRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

/**
 * A small OpenAI-compatible endpoint on loopback. Its base URL's first segment picks the behaviour:
 * /ok answers a summary, /fail answers 500, /hang never answers.
 */
async function startFakeModel(): Promise<{
  server: Server;
  baseUrl: (mode: string) => string;
  seen: SeenRequest[];
}> {
  const seen: SeenRequest[] = [];
  const readBody = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return JSON.parse(text);
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      if (request.url === '/ok/v1/chat/completions') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            choices: [
              { index: 0, message: { role: 'assistant', content: '  Healthy: nothing needs action.  ' } },
            ],
          }),
        );
      } else if (request.url === '/fail/v1/chat/completions') {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'model not loaded' }));
      }
      // /hang: never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, baseUrl: (mode) => `http://127.0.0.1:${port}/${mode}/v1` };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: health report summary from a language model`, () => {
    let fake: Awaited<ReturnType<typeof startFakeModel>>;
    beforeAll(async () => {
      fake = await startFakeModel();
    });
    afterAll(async () => {
      fake.server.closeAllConnections();
      await new Promise((resolve) => fake.server.close(resolve));
    });

    /**
     * Generates a report on an app built with `env` (after `prepare`); returns it, the stored latest,
     * and the call's wall time.
     */
    async function generateWith(
      env: Record<string, string>,
      prepare: (t: TestApp) => Promise<void> = async () => {},
    ) {
      const t: TestApp = await buildTestApp(dialect, env);
      try {
        await prepare(t);
        const cookie = await t.adminCookie();
        const started = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/system-health/generate',
          headers: { cookie },
        });
        const wallMs = performance.now() - started;
        expect(res.statusCode).toBe(200);
        const stored = await t.app.inject({
          method: 'GET',
          url: '/api/admin/system-health',
          headers: { cookie },
        });
        return {
          report: res.json().healthReport as HealthReport,
          latest: stored.json().healthReport as HealthReport,
          wallMs,
        };
      } finally {
        await t.close();
      }
    }

    const intact = (report: HealthReport) => {
      expect(report.healthScore).toBeGreaterThan(0);
      expect(report.databaseHealth.connectionStatus).toBe('connected');
      expect(report.components).toHaveLength(4);
    };

    it("adds the model's summary, asking with the report and the API key", async () => {
      const before = fake.seen.length;
      const { report, latest } = await generateWith({
        AI_BASE_URL: `${fake.baseUrl('ok')}/`,
        AI_MODEL: 'llama3.2',
        AI_API_KEY: 'sk-test',
      });
      expect(report.summary).toEqual({
        status: 'ok',
        text: 'Healthy: nothing needs action.',
        model: 'llama3.2',
        error: null,
      });
      expect(latest).toEqual(report);
      const [asked] = fake.seen.slice(before);
      expect(asked?.path).toBe('/ok/v1/chat/completions');
      expect(asked?.authorization).toBe('Bearer sk-test');
      expect(asked?.body.model).toBe('llama3.2');
      const prompt = asked?.body.messages.find((m) => m.role === 'user')?.content ?? '';
      expect(prompt).toContain(`"healthScore":${report.healthScore}`);
      expect(prompt).toContain('Open findings');
    });

    it('tells the model about the open findings', async () => {
      const before = fake.seen.length;
      const finding = {
        analysisType: 'client_errors',
        subject: 'TypeError: boom',
        severity: 'ERROR',
        title: 'Repeated client error: TypeError: boom',
        description: 'The console reported this error 12 times in 10 minutes',
        suggestedAction: 'Look at the component that throws it',
        occurrences: 12,
        lastSeenAt: 0,
        evidence: { kind: 'client_errors', name: 'TypeError', message: 'boom', reports: 12 },
      } as const;
      await generateWith({ AI_BASE_URL: fake.baseUrl('ok'), AI_MODEL: 'llama3.2' }, async (t) => {
        await upsertOpenFinding(t.ctx.db, { ...finding, lastSeenAt: t.clock.now() }, 12, t.clock.now());
        await botsReport(t, ['ghost-01']); // a live fleet: no finding of its own
        t.clock.advance(1000);
      });
      const prompt = fake.seen.slice(before)[0]?.body.messages.find((m) => m.role === 'user')?.content ?? '';
      expect(prompt).toContain('Open findings (1)');
      expect(prompt).toContain(finding.title);
      expect(prompt).toContain('"frequency":12');
    });

    it("tells the model the fleet's state first: down, with its headline and its finding", async () => {
      const before = fake.seen.length;
      const { report } = await generateWith(
        { AI_BASE_URL: fake.baseUrl('ok'), AI_MODEL: 'llama3.2' },
        async (t) => {
          await botsReport(t, ['ghost-07']);
          t.clock.advance(2 * 60_000);
        },
      );
      expect([report.systemStatus, report.fleetHealth.condition?.state]).toEqual(['critical', 'down']);
      const asked = fake.seen.slice(before)[0]?.body.messages ?? [];
      expect(asked.find((m) => m.role === 'system')?.content).toContain('When the fleet is not live');
      const prompt = asked.find((m) => m.role === 'user')?.content ?? '';
      expect(prompt).toMatch(
        /"fleet":\{"state":"down","headline":"No bot has reported for 2 min — last heard \d\d:\d\d UTC from ghost-07"\}/,
      );
      expect(prompt).toContain('"systemStatus":"critical"');
      expect(prompt).toContain('"type":"fleet_not_live"');
    });

    it('keeps the rule-based report when the model answers 500, and says so', async () => {
      const { report, latest } = await generateWith({
        AI_BASE_URL: fake.baseUrl('fail'),
        AI_MODEL: 'llama3.2',
      });
      expect(report.summary).toEqual({
        status: 'failed',
        text: null,
        model: 'llama3.2',
        error: 'HTTP 500: {"error":"model not loaded"}',
      });
      intact(report);
      expect(latest).toEqual(report);
      expect(fake.seen.at(-1)?.authorization).toBeUndefined();
    });

    it('gives up on a model that never answers after AI_TIMEOUT_MS, keeping the report', async () => {
      const { report, latest, wallMs } = await generateWith({
        AI_BASE_URL: fake.baseUrl('hang'),
        AI_MODEL: 'llama3.2',
        AI_TIMEOUT_MS: '300',
      });
      expect(report.summary).toEqual({
        status: 'failed',
        text: null,
        model: 'llama3.2',
        error: 'timed out after 300 ms',
      });
      intact(report);
      expect(latest).toEqual(report);
      expect(wallMs).toBeGreaterThanOrEqual(300);
      // The analysis time is the measurement's, not the wait for the model.
      expect(report.analysisTime).toBeLessThan(wallMs - 250);
    });

    it('says the analysis is rule-based when no model is configured', async () => {
      const before = fake.seen.length;
      const { report } = await generateWith({ AI_MODEL: 'llama3.2' });
      expect(report.summary).toEqual({ status: 'disabled', text: null, model: null, error: null });
      intact(report);
      expect(fake.seen.length).toBe(before);
    });
  });
}

describe('model settings', () => {
  it('refuses an AI_BASE_URL that is not an http(s) URL, naming it', async () => {
    await expect(buildTestApp('sqlite', { AI_BASE_URL: 'localhost:11434' })).rejects.toThrow(
      'AI_BASE_URL: localhost:11434 is not an http(s) URL like http://localhost:11434/v1',
    );
  });
});
