import { maskLicenseKey } from '../../../../../common/mask.ts';
import type { AppContext } from '../../../../context.ts';
import { type FailedAuditEvent, loadFailedAuditEvents } from '../evidence.store.ts';
import {
  type AnalysisWindow,
  type FindingCandidate,
  groupBy,
  HOUR_MS,
  plural,
  severityAt,
} from './detector.ts';
import { trailingBurst } from './trailing-burst.ts';

/**
 * shared_key: the loader refusing one script key to many different devices, the sign of a key that
 * was shared or leaked. Refusals are the loader's failed audit rows that name a device: a device
 * beyond the key's binding limit (`binding_attempt`), a bad challenge signature (`hmac_verification`)
 * or a spent nonce (`challenge_verified`). It fires when SHARED_KEY.minDevices different devices
 * were refused within SHARED_KEY.spanMs; its frequency counts the refused loads.
 */
export const SHARED_KEY = {
  spanMs: HOUR_MS,
  minDevices: 5,
  severity: { error: 10, critical: 25 },
} as const;

/** The loader's refusals that carry the device (see loader-access.ts). */
export const LOADER_REFUSALS = ['binding_attempt', 'hmac_verification', 'challenge_verified'] as const;

export function sharedKeyFindings(events: FailedAuditEvent[], window: AnalysisWindow): FindingCandidate[] {
  const byKey = groupBy(events, (e) => (e.hardwareId ? e.licenseKey : null));
  return [...byKey].flatMap(([scriptKey, refusals]) => {
    const burst = trailingBurst(
      refusals.map((e) => ({ at: e.timestamp, weight: 1, distinct: e.hardwareId ?? '' })),
      window,
      SHARED_KEY.spanMs,
      SHARED_KEY.minDevices,
      'distinct',
    );
    const scriptKeyId = refusals.map((e) => e.details.scriptKeyId).find((id) => typeof id === 'number');
    if (!burst || scriptKeyId === undefined) return [];
    const masked = maskLicenseKey(scriptKey);
    return [
      {
        analysisType: 'shared_key' as const,
        subject: `script key #${scriptKeyId}`,
        severity: severityAt(burst.peak, SHARED_KEY.severity),
        title: `Script key ${masked} tried from ${plural(burst.peak, 'device')} in an hour`,
        description:
          `The loader refused script key ${masked} (#${scriptKeyId}) to ${plural(burst.peak, 'device')} ` +
          `it is not bound to within an hour (${plural(burst.occurrences, 'refused load')} since the last analysis): ` +
          'the key is being shared or has leaked.',
        suggestedAction: `Switch script key ${masked} off (Script Keys) and give its owner a new one.`,
        occurrences: burst.occurrences,
        lastSeenAt: burst.lastAt,
        evidence: { kind: 'shared_key' as const, scriptKeyId, maskedKey: masked, devices: burst.peak },
      },
    ];
  });
}

export async function detectSharedKeys(ctx: AppContext, window: AnalysisWindow): Promise<FindingCandidate[]> {
  const events = await loadFailedAuditEvents(ctx.db, LOADER_REFUSALS, {
    since: window.from - SHARED_KEY.spanMs,
    until: window.to,
  });
  return sharedKeyFindings(events, window);
}
