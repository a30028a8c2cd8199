import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/render.tsx';
import type { HealthReport } from '../../../../common/ai-health.ts';
import { fleetCondition, healthReport } from './ai-debugging.fixtures.ts';
import {
  ANALYSIS_URL,
  expectToast,
  GENERATE_URL,
  getsOf,
  HEALTH_URL,
  RECOMMENDATIONS_URL,
  renderAiDebugging,
  resetBetweenTests,
} from './ai-debugging.test-utils.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
resetBetweenTests();

const card = (name: string) => screen.getByRole('group', { name });
const GREEN = 'text-emerald-400';
const YELLOW = 'text-yellow-400';
const RED = 'text-red-400';

/** A promise the test settles itself, to hold a call open. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('AiDebuggingPage: the report', () => {
  it("shows the four health cards with the report's measurements and the fleet", async () => {
    renderAiDebugging();
    await screen.findByRole('group', { name: 'Health Score' });

    expect(within(card('Health Score')).getByText('91')).toBeTruthy();
    expect(within(card('Health Score')).getByText('healthy')).toBeTruthy();
    expect(within(card('Database')).getByText('0.4 ms')).toBeTruthy();
    expect(within(card('Database')).getByText('connected')).toBeTruthy();
    expect(card('Security').textContent).toContain('20/100');
    expect(card('Security').textContent).toContain('Active threats (last hour)3');
    expect(
      within(card('Security')).getByText('TRUST_PROXY=true: any client can set X-Forwarded-For'),
    ).toBeTruthy();
    expect(within(card('Performance')).getByText('13 ms')).toBeTruthy();
    expect(card('Performance').textContent).toContain('4.2 ms / 48 ms');
    expect(card('Performance').textContent).toContain('Memory37.3%');
    expect(card('Performance').textContent).toContain('CPU8%');
    expect(card('Fleet Health').textContent).toContain('Bots heard from70 of 70');
    expect(within(card('Fleet Health')).getByText('LIVE')).toBeTruthy();
    expect(card('Fleet Health').textContent).toContain('Bots in error2 of 70');
    expect(card('Fleet Health').textContent).toContain('Hop failure rate (last hour)12.5%');
    expect(card('Fleet Health').textContent).toContain('Pool availability64%');
  });

  it('says a silent fleet is down, since when and which bot was heard last, beside the bots in error', async () => {
    const lastHeardAt = '2026-11-23T11:53:00.000Z';
    renderAiDebugging({
      report: healthReport({
        healthScore: 59,
        systemStatus: 'critical',
        generatedAt: '2026-11-23T11:55:00.000Z',
        fleetHealth: {
          totalBots: 70,
          errorBots: 0,
          hopFailureRate: null,
          poolAvailability: 64,
          condition: fleetCondition({ state: 'down', heardBots: 0, heardPercent: 0, lastHeardAt }),
        },
      }),
    });
    const fleet = await screen.findByRole('group', { name: 'Fleet Health' });
    expect(within(fleet).getByText('DOWN').className).toContain('text-red');
    const time = new Date(lastHeardAt).toLocaleTimeString('en-US', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(
      within(fleet).getByText(`No bot has reported for 2 min — last heard ${time} from ghost-07`),
    ).toBeTruthy();
    expect(fleet.textContent).toContain('Bots heard from0 of 70');
    expect(fleet.textContent).toContain('Bots in error0 of 70');
    expect(within(card('Health Score')).getByText('critical')).toBeTruthy();
  });

  it('names who stopped the fleet during an emergency stop', async () => {
    renderAiDebugging({
      report: healthReport({
        fleetHealth: {
          ...healthReport().fleetHealth,
          condition: fleetCondition({
            state: 'stopped',
            stoppedBy: 'admin (203.0.113.9)',
            stoppedReason: 'ban wave',
          }),
        },
      }),
    });
    const fleet = await screen.findByRole('group', { name: 'Fleet Health' });
    expect(within(fleet).getByText('STOPPED')).toBeTruthy();
    expect(
      within(fleet).getByText(
        'Emergency stop by admin (203.0.113.9): ban wave — bots are told to stop scanning',
      ),
    ).toBeTruthy();
  });

  it('says what a fleet without hops or pool servers has instead of a rate', async () => {
    renderAiDebugging({
      report: healthReport({
        fleetHealth: {
          totalBots: 0,
          errorBots: 0,
          hopFailureRate: null,
          poolAvailability: null,
          condition: null,
        },
        securityHealth: { vulnerabilityScore: 0, activeThreats: 0, weaknesses: [] },
      }),
    });
    await screen.findByRole('group', { name: 'Fleet Health' });
    expect(within(card('Fleet Health')).getByText('No hops in the last hour')).toBeTruthy();
    expect(within(card('Fleet Health')).getByText('The pool is empty')).toBeTruthy();
    expect(within(card('Security')).getByText('None found in the setup')).toBeTruthy();
  });

  it.each([
    [100, GREEN],
    [85, GREEN],
    [84, YELLOW],
    [60, YELLOW],
    [59, RED],
    [0, RED],
  ])('colours a health score of %i with %s', async (score, colour) => {
    renderAiDebugging({ report: healthReport({ healthScore: score }) });
    const value = await within(await screen.findByRole('group', { name: 'Health Score' })).findByText(
      String(score),
    );
    expect(value.className).toContain(colour);
  });

  it('colours each part of the score by its band and shows its weight and what lowered it', async () => {
    renderAiDebugging();
    const breakdown = await screen.findByRole('group', { name: 'Score Breakdown' });
    const part = (name: string) => within(breakdown).getByRole('listitem', { name });
    const score = (name: string, value: number) => within(part(name)).getByText(String(value)).className;

    expect(score('Database', 100)).toContain(GREEN);
    expect(score('Performance', 88)).toContain(GREEN);
    expect(score('Security', 72)).toContain(YELLOW);
    expect(score('Fleet', 41)).toContain(RED);
    expect(part('Fleet').textContent).toContain('weight 30%');
    expect(within(part('Fleet')).getByText('12.5% of hops failed in the last hour')).toBeTruthy();
  });

  it('shows when the report was made, how long ago, and the analysis duration in the spec format', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    renderAiDebugging({ report: healthReport({ generatedAt: fiveMinutesAgo, analysisTime: 340 }) });
    expect(await screen.findByText(/\(5 minutes ago\)/)).toBeTruthy();
    expect(screen.getByText('340ms')).toBeTruthy();
  });

  it.each([
    [999, '999ms'],
    [4_200, '4.2s'],
    [59_900, '59.9s'],
    [125_000, '2m 5s'],
  ])('shows an analysis of %i ms as %s', async (analysisTime, shown) => {
    renderAiDebugging({ report: healthReport({ analysisTime }) });
    expect(await screen.findByText(shown)).toBeTruthy();
  });

  it("shows the model's summary and which model wrote it", async () => {
    renderAiDebugging({
      report: healthReport({
        summary: {
          status: 'ok',
          text: 'The fleet is failing hops at twice its usual rate.',
          model: 'llama3.2:3b',
          error: null,
        },
      }),
    });
    const summary = await screen.findByRole('group', { name: 'AI Summary' });
    expect(within(summary).getByText('The fleet is failing hops at twice its usual rate.')).toBeTruthy();
    expect(within(summary).getByText('Written by llama3.2:3b')).toBeTruthy();
  });

  it('says the summary failed and why, with the rule-based report still shown', async () => {
    renderAiDebugging({
      report: healthReport({
        summary: { status: 'failed', text: null, model: 'llama3.2:3b', error: 'timed out after 20 s' },
      }),
    });
    expect(await screen.findByText('The AI summary failed')).toBeTruthy();
    expect(screen.getByText(/\(timed out after 20 s\)\. The rule-based report above stands\./)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Health Score' })).toBeTruthy();
  });

  it('says the analysis is rule-based when no language model is configured', async () => {
    renderAiDebugging();
    expect(await screen.findByText('Rule-based analysis')).toBeTruthy();
    expect(screen.getByText(/Set AI_BASE_URL and AI_MODEL/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'AI Summary' })).toBeNull();
  });

  it('says so when the health data cannot be loaded', async () => {
    renderAiDebugging({}, { [HEALTH_URL]: () => json({ error: 'Database unavailable' }, 503) });
    expect(await screen.findByText('Failed to load health data')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Health Score' })).toBeNull();
  });
});

describe('AiDebuggingPage: Generate Report', () => {
  it('before any report says there is none and offers Generate Report, which shows the new one', async () => {
    const user = userEvent.setup();
    const state: { report: HealthReport | null } = { report: null };
    const { posts } = renderAiDebugging(state, {
      [`POST ${GENERATE_URL}`]: () => {
        state.report = healthReport({ healthScore: 67 });
        return json({ healthReport: state.report });
      },
    });
    expect(await screen.findByText('No health report yet')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Health Score' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Generate Report' }));
    const score = await screen.findByRole('group', { name: 'Health Score' });
    expect(within(score).getByText('67').className).toContain(YELLOW);
    expect(posts).toEqual([GENERATE_URL]);
    expect(screen.queryByText('No health report yet')).toBeNull();
  });

  it('spins while the report is made, then refreshes the report, the findings and the recommendations', async () => {
    const user = userEvent.setup();
    const answer = deferred<Response>();
    const state = { report: healthReport() };
    const { fetchMock } = renderAiDebugging(state, { [`POST ${GENERATE_URL}`]: () => answer.promise });
    await screen.findByRole('group', { name: 'Health Score' });
    const gets = () => [HEALTH_URL, ANALYSIS_URL, RECOMMENDATIONS_URL].map((url) => getsOf(fetchMock, url));
    expect(gets()).toEqual([1, 1, 1]);

    const button = screen.getByRole('button', { name: 'Generate Report' }) as HTMLButtonElement;
    await user.click(button);
    expect(button.disabled).toBe(true);
    expect(screen.getByTestId('generate-spinner')).toBeTruthy();

    state.report = healthReport({ id: 'report-2', healthScore: 52, systemStatus: 'critical' });
    answer.resolve(json({ healthReport: state.report }));
    await waitFor(() => expect(gets()).toEqual([2, 2, 2]));
    expect(within(card('Health Score')).getByText('52').className).toContain(RED);
    expect(within(card('Health Score')).getByText('critical')).toBeTruthy();
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('generate-spinner')).toBeNull();
  });

  it('stops the spinner when generating fails and says why, keeping the report shown', async () => {
    const user = userEvent.setup();
    renderAiDebugging({}, { [`POST ${GENERATE_URL}`]: () => json({ error: 'Database unavailable' }, 503) });
    await screen.findByRole('group', { name: 'Health Score' });

    const button = screen.getByRole('button', { name: 'Generate Report' }) as HTMLButtonElement;
    await user.click(button);
    await expectToast('Report Generation Failed', 'Database unavailable', 'destructive');
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('generate-spinner')).toBeNull();
    expect(within(card('Health Score')).getByText('91')).toBeTruthy();
  });

  it('polls the report every 5 min, the findings every 2 min and the recommendations every 10 min', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { fetchMock } = renderAiDebugging();
      await screen.findByRole('group', { name: 'Health Score' });
      const counts = () => ({
        health: getsOf(fetchMock, HEALTH_URL),
        analysis: getsOf(fetchMock, ANALYSIS_URL),
        recommendations: getsOf(fetchMock, RECOMMENDATIONS_URL),
      });
      expect(counts()).toEqual({ health: 1, analysis: 1, recommendations: 1 });
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      expect(counts()).toEqual({ health: 1, analysis: 2, recommendations: 1 });
      await vi.advanceTimersByTimeAsync(3 * 60_000);
      expect(counts()).toEqual({ health: 2, analysis: 3, recommendations: 1 });
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(counts()).toEqual({ health: 3, analysis: 6, recommendations: 2 });
    } finally {
      vi.useRealTimers();
    }
  });
});
