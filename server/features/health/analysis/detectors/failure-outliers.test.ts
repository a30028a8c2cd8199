import { describe, expect, it } from 'vitest';
import {
  type FailureTally,
  failingBotFinding,
  failingServerFinding,
  findFailureOutliers,
  medianFailureRate,
  OUTLIER,
} from './failure-outliers.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A bot's last hour: 720 hops (one every 5 s) failing at `rate`, `newFailed` of them since the last run. */
const bot = (subject: string, rate: number, newFailed = 3, hops = 720): FailureTally => ({
  subject,
  hops,
  failed: Math.round(hops * rate),
  newFailed,
  lastAt: NOW,
});

/** 70 bots failing around the simulator's 10% (8% to 12%). */
const normalFleet = () => Array.from({ length: 70 }, (_, i) => bot(`ghost-${i + 1}`, 0.08 + (i % 5) * 0.01));

describe('failing bots and servers', () => {
  it('stays quiet for a fleet failing 8–12% of its hops, however many failures each bot has', () => {
    const tallies = normalFleet();
    expect(medianFailureRate(tallies, OUTLIER.bot.minHops)).toBeCloseTo(0.1, 2);
    expect(
      findFailureOutliers(tallies, medianFailureRate(tallies, OUTLIER.bot.minHops), OUTLIER.bot),
    ).toEqual([]);
  });

  it('picks out the one bot failing 40% while the rest fail about 10%', () => {
    const tallies = [...normalFleet(), bot('ghost-71', 0.4)];
    const outliers = findFailureOutliers(
      tallies,
      medianFailureRate(tallies, OUTLIER.bot.minHops),
      OUTLIER.bot,
    );
    expect(outliers.map((o) => o.subject)).toEqual(['ghost-71']);
    expect(outliers[0]?.ratio).toBeCloseTo(4, 1);
  });

  it('needs a minimum of failures, more than 3× the median, and new failures in this run', () => {
    const median = 0.1;
    // 19 hops (10 failed); 20 hops with 9 failed; 30% is exactly 3× the median
    expect(findFailureOutliers([bot('few hops', 0.53, 3, 19)], median, OUTLIER.bot)).toEqual([]);
    expect(findFailureOutliers([bot('few failures', 0.45, 3, 20)], median, OUTLIER.bot)).toEqual([]);
    expect(findFailureOutliers([bot('three-times', 0.3)], median, OUTLIER.bot)).toEqual([]);
    expect(findFailureOutliers([bot('stopped failing', 0.5, 0)], median, OUTLIER.bot)).toEqual([]);
    expect(findFailureOutliers([bot('failing', 0.31)], median, OUTLIER.bot)).toHaveLength(1);
  });

  it('never takes the baseline below 2%, so a fleet that hardly fails does not flag every bot with a few failures', () => {
    expect(findFailureOutliers([bot('ghost-1', 0.05)], 0, OUTLIER.bot)).toEqual([]);
    expect(findFailureOutliers([bot('ghost-1', 0.07)], 0, OUTLIER.bot)).toHaveLength(1);
  });

  it('says when a bot is rate-limited by the game, and counts its new failures', () => {
    const [outlier] = findFailureOutliers([bot('ghost-12', 0.45, 7)], 0.1, OUTLIER.bot);
    if (!outlier) throw new Error('no outlier');
    const limited = failingBotFinding(outlier, [
      { errorMessage: 'HTTP 429 (Too Many Requests) from TeleportService', failed: 300 },
      { errorMessage: 'Teleport failed: GameEnded (the server has shut down)', failed: 24 },
    ]);
    expect(limited).toMatchObject({
      analysisType: 'failing_bot',
      subject: 'ghost-12',
      severity: 'WARNING',
      title: 'ghost-12 is rate-limited by the game: 45% of its hops fail',
      occurrences: 7,
      evidence: { botId: 'ghost-12', rateLimitedShare: 300 / 324 },
    });
    expect(limited.description).toContain('most often "HTTP 429 (Too Many Requests) from TeleportService"');
    const broken = failingBotFinding(outlier, [
      { errorMessage: 'Lost connection (Error Code: 277)', failed: 324 },
    ]);
    expect(broken.title).toBe('ghost-12 fails 45% of its hops (the fleet: 10%)');
    expect(broken.suggestedAction).toContain('restart it');
  });

  it('rates severity by how many times the baseline', () => {
    const severityOf = (rate: number) =>
      findFailureOutliers([bot('b', rate)], 0.05, OUTLIER.bot)
        .map((o) => failingBotFinding(o, []))
        .at(0)?.severity;
    expect([severityOf(0.2), severityOf(0.35), severityOf(0.7)]).toEqual(['WARNING', 'ERROR', 'CRITICAL']);
  });

  it('names a failing server by place and job id', () => {
    const [outlier] = findFailureOutliers(
      [{ subject: '109983668079237/job-9', hops: 8, failed: 6, newFailed: 2, lastAt: NOW }],
      0.1,
      { minHops: 1, ...OUTLIER.server },
    );
    if (!outlier) throw new Error('no outlier');
    expect(failingServerFinding(outlier, '109983668079237', 'job-9')).toMatchObject({
      analysisType: 'failing_server',
      subject: '109983668079237/job-9',
      title: 'Game server job-9 fails 75% of the hops to it',
      occurrences: 2,
      evidence: { placeId: '109983668079237', jobId: 'job-9' },
    });
  });
});
