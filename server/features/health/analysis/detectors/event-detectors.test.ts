import { describe, expect, it } from 'vitest';
import type { FailedAuditEvent } from '../evidence.store.ts';
import { LOGIN_BURST, loginBurstFindings, RATE_LIMIT_BURST, rateLimitBurstFindings } from './audit-bursts.ts';
import { CLIENT_ERRORS, clientErrorFindings } from './client-errors.ts';
import { configNotAcknowledgedFindings } from './config-not-acknowledged.ts';
import { MINUTE_MS } from './detector.ts';
import { SHARED_KEY, sharedKeyFindings } from './shared-key.ts';
import { slotsFinding } from './slots-nearly-full.ts';
import { trailingBurst } from './trailing-burst.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (minutes: number) => T0 + minutes * MINUTE_MS;
/** The run reading 12:00 to 13:00. */
const WINDOW = { from: at(0), to: at(60) };

function audit(eventType: string, minutes: number, fields: Partial<FailedAuditEvent> = {}): FailedAuditEvent {
  return {
    eventType,
    timestamp: at(minutes),
    client: null,
    ipAddress: null,
    licenseKey: null,
    hardwareId: null,
    details: {},
    ...fields,
  };
}

const failedLogin = (minutes: number, ip: string) =>
  audit('admin_login', minutes, { client: ip, ipAddress: ip });
const lockedOut = (minutes: number, ip: string) =>
  audit('rate_limit_hit', minutes, {
    client: ip,
    ipAddress: ip,
    details: { limitType: 'admin_login', failures: 5 },
  });
const limitHit = (minutes: number, identifier: string, count: number, scope = 'ip', limitType = 'loader') =>
  audit('rate_limit_hit', minutes, {
    ipAddress: '198.51.100.9',
    details: { limitType, scope, identifier, count },
  });

describe('trailing bursts', () => {
  it('counts the window events that arrived while the trailing span held the threshold', () => {
    const events = [0, 1, 2, 3, 4, 5].map((m) => ({ at: at(m), weight: 1 }));
    expect(trailingBurst(events, WINDOW, 10 * MINUTE_MS, 5, 'sum')).toEqual({
      occurrences: 2,
      peak: 6,
      lastAt: at(5),
    });
    expect(trailingBurst(events, WINDOW, 10 * MINUTE_MS, 7, 'sum')).toBeNull();
  });

  it('lets events before the window fill the span without counting them again', () => {
    const events = [-3, -2, -1, 1].map((m) => ({ at: at(m), weight: 1 }));
    expect(trailingBurst(events, WINDOW, 10 * MINUTE_MS, 4, 'sum')).toMatchObject({
      occurrences: 1,
      peak: 4,
    });
  });

  it('forgets events older than the span, and counts distinct values when asked', () => {
    const spread = [0, 20, 40].map((m) => ({ at: at(m), weight: 5 }));
    expect(trailingBurst(spread, WINDOW, 10 * MINUTE_MS, 6, 'sum')).toBeNull();
    const devices = ['a', 'a', 'b', 'a', 'c'].map((d, i) => ({ at: at(i), weight: 1, distinct: d }));
    expect(trailingBurst(devices, WINDOW, 60 * MINUTE_MS, 3, 'distinct')).toMatchObject({
      occurrences: 1,
      peak: 3,
    });
  });
});

describe('login bursts', () => {
  it('fires for the failed and locked-out logins of one address within 15 minutes, and not for a few typos', () => {
    const events = [
      ...[1, 2, 3, 4, 5].map((m) => failedLogin(m, '203.0.113.7')),
      lockedOut(6, '203.0.113.7'),
      failedLogin(10, '192.0.2.1'),
      failedLogin(11, '192.0.2.1'),
    ];
    expect(loginBurstFindings(events, WINDOW)).toEqual([
      {
        analysisType: 'login_burst',
        subject: '203.0.113.7',
        severity: 'WARNING',
        title: 'Burst of failed admin logins from 203.0.113.7',
        description:
          '6 failed or locked-out admin logins from 203.0.113.7 within 15 minutes (the last at 12:06 UTC).',
        suggestedAction: expect.stringContaining('block 203.0.113.7'),
        occurrences: 2,
        lastSeenAt: at(6),
        evidence: { kind: 'login_burst', client: '203.0.113.7', attempts: 6 },
      },
    ]);
  });

  it('stays quiet for five failures spread over an hour', () => {
    const events = [0, 16, 32, 48, 59].map((m) => failedLogin(m, '203.0.113.7'));
    expect(loginBurstFindings(events, WINDOW)).toEqual([]);
    expect(LOGIN_BURST.minAttempts).toBe(5);
  });
});

describe('rate-limit bursts', () => {
  it('adds up the refusals each hit row counts, per identifier, and masks a key', () => {
    const key = `SK-${'ab'.repeat(32)}`;
    const events = [
      limitHit(1, '198.51.100.9', 60),
      limitHit(2, '198.51.100.9', 60),
      limitHit(3, '192.0.2.55', 40),
      limitHit(4, key, 150, 'key', 'feed'),
      lockedOut(5, '198.51.100.9'),
    ];
    const findings = rateLimitBurstFindings(events, WINDOW);
    expect(findings.map((f) => [f.subject, f.occurrences, f.severity])).toEqual([
      ['198.51.100.9', 60, 'WARNING'],
      ['key SK-ababa************abab', 150, 'WARNING'],
    ]);
    expect(findings[0]?.description).toBe(
      'The rate limits refused 120 calls from 198.51.100.9 within 10 minutes (loader; the last window began at 12:02 UTC).',
    );
    expect(RATE_LIMIT_BURST.minRefused).toBe(100);
  });
});

describe('shared keys', () => {
  const key = `SK-${'cd'.repeat(32)}`;
  const refusal = (minutes: number, hardwareId: string) =>
    audit('binding_attempt', minutes, { licenseKey: key, hardwareId, details: { scriptKeyId: 12 } });

  it('fires when five different devices are refused one key within an hour', () => {
    const events = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((d, i) => refusal(i * 5, d));
    const [finding] = sharedKeyFindings(events, WINDOW);
    expect(finding).toMatchObject({
      analysisType: 'shared_key',
      subject: 'script key #12',
      severity: 'WARNING',
      title: 'Script key SK-cdcdc************cdcd tried from 6 devices in an hour',
      occurrences: 2,
      evidence: { kind: 'shared_key', scriptKeyId: 12, maskedKey: 'SK-cdcdc************cdcd', devices: 6 },
    });
    expect(SHARED_KEY.minDevices).toBe(5);
  });

  it('stays quiet for one device refused again and again (its owner over the limit)', () => {
    const events = Array.from({ length: 30 }, (_, i) => refusal(i, 'd1'));
    expect(sharedKeyFindings(events, WINDOW)).toEqual([]);
  });
});

describe('client errors', () => {
  it('groups reports by name and message and fires for five of one within an hour', () => {
    const reports = [
      ...[1, 2, 3, 4, 5].map((m) => ({
        name: 'TypeError',
        message: 'x.map is not a function',
        createdAt: at(m),
      })),
      ...[1, 2, 3, 4, 5].map((m) => ({ name: 'Error', message: `Request ${m} failed`, createdAt: at(m) })),
    ];
    const findings = clientErrorFindings(reports, WINDOW);
    expect(findings.map((f) => [f.subject, f.occurrences, f.title])).toEqual([
      [
        'TypeError: x.map is not a function',
        1,
        '"TypeError: x.map is not a function" reported 5 times in an hour',
      ],
    ]);
    expect(CLIENT_ERRORS.minReports).toBe(5);
  });
});

describe('unacknowledged configuration', () => {
  it('names each bot that let a push pass its deadline', () => {
    const findings = configNotAcknowledgedFindings(
      [
        { botId: 'ghost-69', respondedAt: at(1) },
        { botId: 'ghost-69', respondedAt: at(30) },
        { botId: 'ghost-70', respondedAt: at(-120) },
      ],
      WINDOW,
    );
    expect(findings.map((f) => [f.subject, f.occurrences, f.evidence])).toEqual([
      ['ghost-69', 2, { kind: 'config_not_acknowledged', botId: 'ghost-69', unacknowledged: 2 }],
    ]);
  });
});

describe('slots nearly full', () => {
  const usage = (usedSlots: number, totalSlots = 30) => ({
    usedSlots,
    totalSlots,
    availableSlots: Math.max(0, totalSlots - usedSlots),
    utilizationPercentage: Math.round((usedSlots / totalSlots) * 100),
  });

  it('fires from 90% used, as an error once none is left', () => {
    expect(slotsFinding(usage(26), at(0))).toBeNull();
    expect(slotsFinding(usage(27), at(0))).toMatchObject({
      severity: 'WARNING',
      title: 'Premium slots nearly full: 27/30 used',
      isState: true,
    });
    expect(slotsFinding(usage(30), at(0))).toMatchObject({
      severity: 'ERROR',
      title: 'No premium slots left: 30/30 used',
    });
  });
});
