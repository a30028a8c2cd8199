import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/render.tsx';
import { formatDate } from '../../../../common/format.ts';
import { finding, recommendation } from './ai-debugging.fixtures.ts';
import {
  ANALYSIS_URL,
  expectToast,
  getsOf,
  RECOMMENDATIONS_URL,
  renderAiDebugging,
  resetBetweenTests,
} from './ai-debugging.test-utils.tsx';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn(), dismissToast: vi.fn(), useToasts: () => [] }));
resetBetweenTests();

const RESOLVE_URL = `${ANALYSIS_URL}/resolve/finding-1`;
const IMPLEMENT_URL = `${RECOMMENDATIONS_URL}/implement/rec-1`;

async function openRecommendations(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('tab', { name: /AI Recommendations/ }));
}

describe('AiDebuggingPage: Analysis Results', () => {
  it('shows each finding with its severity, type, description, suggested action and how often it was seen', async () => {
    renderAiDebugging({ findings: [finding()] });
    const article = await screen.findByRole('article', { name: 'Hop failures spiked to 38% a minute' });
    const inCard = within(article);
    expect(inCard.getByText('ERROR')).toBeTruthy();
    expect(inCard.getByText('hop_failure_spike')).toBeTruthy();
    expect(inCard.getByText(/Failed hops rose to 38% against a baseline of 9%/)).toBeTruthy();
    expect(
      inCard.getByText('Slow the bots down with the STEALTH profile until the game recovers.'),
    ).toBeTruthy();
    expect(article.textContent).toMatch(
      /Seen 4 times · First seen Nov 23, 2026, .* · Last seen Nov 23, 2026/,
    );
    expect(inCard.getByRole('button', { name: 'Resolve' })).toBeTruthy();
    expect(screen.queryByText('No critical issues detected')).toBeNull();
  });

  it('colours the severities from red (CRITICAL) to blue (INFO)', async () => {
    renderAiDebugging({
      findings: (['CRITICAL', 'ERROR', 'WARNING', 'INFO'] as const).map((severity) =>
        finding({ id: severity, severity, title: `A ${severity} finding` }),
      ),
    });
    const badge = async (severity: string) =>
      within(await screen.findByRole('article', { name: `A ${severity} finding` })).getByText(severity)
        .className;
    expect(await badge('CRITICAL')).toContain('text-red-300');
    expect(await badge('ERROR')).toContain('text-orange-300');
    expect(await badge('WARNING')).toContain('text-amber-300');
    expect(await badge('INFO')).toContain('text-sky-300');
  });

  it('shows a finding that closed itself as resolved, saying when: "resolved automatically at …"', async () => {
    const resolvedAt = '2026-11-23T12:10:00.000Z';
    renderAiDebugging({
      findings: [
        finding({
          title: 'No premium slots left: 5/3 used',
          isResolved: 1,
          resolution: 'automatic',
          resolvedAt,
        }),
      ],
    });
    const article = await screen.findByRole('article', { name: 'No premium slots left: 5/3 used' });
    expect(within(article).getByText('Resolved')).toBeTruthy();
    expect(within(article).queryByRole('button', { name: 'Resolve' })).toBeNull();
    expect(article.textContent).toContain(`resolved automatically at ${formatDate(resolvedAt)}`);
    expect(screen.getByText('No critical issues detected')).toBeTruthy();
  });

  it("says 'No critical issues detected' when there are no findings", async () => {
    renderAiDebugging({ findings: [] });
    expect(await screen.findByText('No critical issues detected')).toBeTruthy();
  });

  it('resolves a finding: its button goes, the list refreshes, and nothing open is left', async () => {
    const user = userEvent.setup();
    const { posts, fetchMock } = renderAiDebugging({ findings: [finding()] });
    const article = await screen.findByRole('article', { name: 'Hop failures spiked to 38% a minute' });

    await user.click(within(article).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(within(article).queryByRole('button', { name: 'Resolve' })).toBeNull());
    expect(within(article).getByText('Resolved')).toBeTruthy();
    expect(posts).toEqual([RESOLVE_URL]);
    await expectToast('Finding Resolved', 'Hop failures spiked to 38% a minute');
    await waitFor(() => expect(getsOf(fetchMock, ANALYSIS_URL)).toBe(2));
    expect(screen.getByText('No critical issues detected')).toBeTruthy();
  });

  it('keeps Resolve when resolving fails and says why', async () => {
    const user = userEvent.setup();
    renderAiDebugging(
      { findings: [finding()] },
      { [`POST ${RESOLVE_URL}`]: () => json({ error: 'Analysis result not found' }, 404) },
    );
    const article = await screen.findByRole('article', { name: 'Hop failures spiked to 38% a minute' });
    await user.click(within(article).getByRole('button', { name: 'Resolve' }));
    await expectToast('Resolve Failed', 'Analysis result not found', 'destructive');
    expect(within(article).getByRole('button', { name: 'Resolve' })).toBeTruthy();
  });

  it('says why the findings failed to load', async () => {
    renderAiDebugging({}, { [ANALYSIS_URL]: () => json({ error: 'boom' }, 500) });
    expect(await screen.findByText('Failed to fetch analysis results')).toBeTruthy();
  });
});

describe('AiDebuggingPage: AI Recommendations', () => {
  it('shows each recommendation with its priority, category, reasoning, impact, notes, validity and what Implement does', async () => {
    const user = userEvent.setup();
    renderAiDebugging({ recommendations: [recommendation()] });
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Apply STEALTH to ghost-12 and ghost-40' });
    const inCard = within(article);
    expect(inCard.getByText('HIGH')).toBeTruthy();
    expect(inCard.getByText('fleet')).toBeTruthy();
    expect(inCard.getByText('Both bots are being refused by the game far more than the rest.')).toBeTruthy();
    expect(inCard.getByText(/failed 31 of 40 hops in the last hour/)).toBeTruthy();
    expect(inCard.getByText('Fewer refused joins and fewer servers marked deleted')).toBeTruthy();
    expect(inCard.getByText(/Applies the built-in STEALTH profile/)).toBeTruthy();
    expect(article.textContent).toMatch(/Valid untilJan 1, 2099/);
    expect(inCard.getByText('Applies the STEALTH profile to ghost-12, ghost-40')).toBeTruthy();
    expect(screen.queryByText('No active recommendations')).toBeNull();
  });

  it('shows a recommendation that closed itself with "resolved automatically at …" and no Implement', async () => {
    const user = userEvent.setup();
    const resolvedAt = '2026-11-23T12:10:00.000Z';
    renderAiDebugging({
      recommendations: [
        recommendation({ title: 'Raise total slots: 5/3 used', resolution: 'automatic', resolvedAt }),
      ],
    });
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Raise total slots: 5/3 used' });
    expect(within(article).queryByRole('button', { name: 'Implement' })).toBeNull();
    expect(within(article).getByText('Resolved')).toBeTruthy();
    expect(article.textContent).toContain(`resolved automatically at ${formatDate(resolvedAt)}`);
    expect(screen.getByText('No active recommendations')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'AI Recommendations' })).toBeTruthy(); // no open count
  });

  it("says 'No active recommendations' when there are none", async () => {
    const user = userEvent.setup();
    renderAiDebugging({ recommendations: [] });
    await openRecommendations(user);
    expect(await screen.findByText('No active recommendations')).toBeTruthy();
  });

  it('asks before an Implement that acts, says what it will do, and does nothing on Cancel', async () => {
    const user = userEvent.setup();
    const { posts } = renderAiDebugging({ recommendations: [recommendation()] });
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Apply STEALTH to ghost-12 and ghost-40' });

    await user.click(within(article).getByRole('button', { name: 'Implement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Implement this recommendation?' });
    expect(within(dialog).getByText('Applies the STEALTH profile to ghost-12, ghost-40')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posts).toEqual([]);
    expect(within(article).getByRole('button', { name: 'Implement' })).toBeTruthy();
  });

  it('implements once confirmed: its button goes, the list refreshes, and nothing active is left', async () => {
    const user = userEvent.setup();
    const { posts, fetchMock } = renderAiDebugging({
      recommendations: [
        recommendation({
          action: { kind: 'revoke_script_key', scriptKeyId: 'key-7' },
          actionLabel: 'Revokes key SK-ABCD…WXYZ',
        }),
      ],
    });
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Apply STEALTH to ghost-12 and ghost-40' });

    await user.click(within(article).getByRole('button', { name: 'Implement' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Revokes key SK-ABCD…WXYZ')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Implement' }));

    await waitFor(() => expect(within(article).queryByRole('button', { name: 'Implement' })).toBeNull());
    expect(within(article).getByText('Implemented')).toBeTruthy();
    expect(posts).toEqual([IMPLEMENT_URL]);
    await expectToast('Recommendation Implemented', 'Revokes key SK-ABCD…WXYZ');
    await waitFor(() => expect(getsOf(fetchMock, RECOMMENDATIONS_URL)).toBe(2));
    expect(screen.getByText('No active recommendations')).toBeTruthy();
  });

  it('implements a recommendation that only marks itself done without asking', async () => {
    const user = userEvent.setup();
    const { posts } = renderAiDebugging({
      recommendations: [
        recommendation({
          action: { kind: 'none' },
          actionLabel: 'Marks it implemented; change the slots yourself',
        }),
      ],
    });
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Apply STEALTH to ghost-12 and ghost-40' });
    await user.click(within(article).getByRole('button', { name: 'Implement' }));
    await waitFor(() => expect(posts).toEqual([IMPLEMENT_URL]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(within(article).queryByRole('button', { name: 'Implement' })).toBeNull());
  });

  it('keeps Implement when implementing fails and says why', async () => {
    const user = userEvent.setup();
    renderAiDebugging(
      {
        recommendations: [recommendation({ action: { kind: 'none' }, actionLabel: 'Marks it implemented' })],
      },
      { [`POST ${IMPLEMENT_URL}`]: () => json({ error: 'Recommendation has expired' }, 409) },
    );
    await openRecommendations(user);
    const article = await screen.findByRole('article', { name: 'Apply STEALTH to ghost-12 and ghost-40' });
    await user.click(within(article).getByRole('button', { name: 'Implement' }));
    await expectToast('Implementation Failed', 'Recommendation has expired', 'destructive');
    expect(within(article).getByRole('button', { name: 'Implement' })).toBeTruthy();
  });

  it('counts the open findings and recommendations on the tabs', async () => {
    renderAiDebugging({
      findings: [finding(), finding({ id: 'finding-2', isResolved: 1 })],
      recommendations: [recommendation(), recommendation({ id: 'rec-2' }), recommendation({ id: 'rec-3' })],
    });
    expect(await screen.findByRole('tab', { name: 'Analysis Results 1' })).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'AI Recommendations 3' })).toBeTruthy();
  });
});
