import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { deviceFromUserAgent } from '../bindings/device-from-user-agent.ts';
import { onScriptKeyChanged } from '../licensing/script-key-events.ts';
import { looksLikeLicenseKey, resolveLicenseKey } from '../script-keys/license-resolution.ts';
import type { PendingWrites } from '../security/pending-writes.ts';
import { spendChallengeNonce } from './challenge.store.ts';
import { bindDeviceToScriptKey } from './device-binding.ts';
import { type CachedScriptKey, readScriptKey, toCachedScriptKey } from './key-cache.ts';
import { LoaderCache } from './loader-cache.ts';

/** Why the loader refuses a PREMIUM script; each is printed in the executor. */
export const ACCESS_TEXTS = {
  keyRequired: 'This script needs a premium key: redeem a code in the universal script',
  unknownKey: 'This key does not exist: check it, or redeem a code in the universal script',
  inactiveKey: 'This key has been switched off by the administrator',
  /** A key switched off automatically (key sharing), with the reason stored on it. */
  inactiveKeyBecause: (reason: string) => `This key has been switched off: ${reason}`,
  expiredKey: 'This key has expired: redeem a new code in the universal script',
  freeKey: 'This is a FREE key: it does not unlock premium scripts',
  revokedDevice: "This device's access to the key was revoked",
  /** A device a reset removed, during its cool-down (DEVICE_RESET_COOLDOWN_MINUTES); detail follows ": ". */
  removedDevice: 'This device was removed from the key',
  removedDeviceUntil: (until: string) =>
    `This device was removed from the key: its devices were reset to move it to another PC. Close the script here; this PC may use the key again after ${until}`,
  deviceLimit: (max: number) =>
    `This key is already bound to ${max} ${max === 1 ? 'device' : 'devices'}: the device limit is reached`,
  badSignature: 'The challenge signature does not match: ask for a new challenge',
  nonceRefused: 'This challenge was already used, has expired or does not exist: ask for a new one',
} as const;

/** What the loader was asked for, once the query is valid and the script is PREMIUM. */
export interface PremiumRequest {
  script: string;
  key?: string;
  hwid?: string;
  /** Both or neither (the loader refuses one without the other before asking here). */
  nonce?: string;
  sig?: string;
  ip: string;
  /** The executor's User-Agent: what a new binding records of the device. */
  userAgent?: string;
}

export type AccessRefusal = { kind: 'refused'; status: 401 | 403; message: string };
/**
 * Granted: the number of the key that opened it (the served script's preamble names it) and when it
 * expires (epoch ms, null: never; the feed tells the script its time left).
 */
export type AccessDecision =
  | { kind: 'granted'; keyId: number; expiresAt: number | null }
  | { kind: 'bootstrap' }
  | AccessRefusal;

/** No hardware id yet: the executor must read it and call again. */
const BOOTSTRAP: AccessDecision = { kind: 'bootstrap' };
const refusal = (status: 401 | 403, message: string): AccessRefusal => ({ kind: 'refused', status, message });
const KEY_REQUIRED = refusal(401, ACCESS_TEXTS.keyRequired);
const UNKNOWN_KEY = refusal(403, ACCESS_TEXTS.unknownKey);
const INACTIVE_KEY = refusal(403, ACCESS_TEXTS.inactiveKey);
const EXPIRED_KEY = refusal(403, ACCESS_TEXTS.expiredKey);
const FREE_KEY = refusal(403, ACCESS_TEXTS.freeKey);
const REVOKED_DEVICE = refusal(403, ACCESS_TEXTS.revokedDevice);
const BAD_SIGNATURE = refusal(403, ACCESS_TEXTS.badSignature);
const NONCE_REFUSED = refusal(403, ACCESS_TEXTS.nonceRefused);

/** License keys whose script key is remembered at most (each a real, resolved key). */
const MAX_LICENSE_ALIASES = 10_000;

/** A device a reset removed, refused until its cool-down ends. */
function removedDevice(until: number): AccessRefusal {
  return refusal(403, ACCESS_TEXTS.removedDeviceUntil(new Date(until).toISOString()));
}

/** Why a switched-off key is refused: the reason stored on it when there is one (key sharing). */
export function inactiveKeyText(disabledReason: string | null): string {
  return disabledReason ? ACCESS_TEXTS.inactiveKeyBecause(disabledReason) : ACCESS_TEXTS.inactiveKey;
}

/** Why the key cannot open a PREMIUM script right now, or undefined when it can. Expiry wins. */
function keyRefusal(key: CachedScriptKey, now: number): AccessRefusal | undefined {
  if (key.expiresAt !== null && key.expiresAt <= now) return EXPIRED_KEY;
  if (!key.isActive)
    return key.disabledReason ? refusal(403, inactiveKeyText(key.disabledReason)) : INACTIVE_KEY;
  if (key.scriptType === 'FREE') return FREE_KEY;
  return undefined;
}

/**
 * Who may load a PREMIUM script: an active, unexpired, non-FREE script key, used from a device bound
 * to it (bound here on first use, up to the key's limit), optionally proving with a challenge that
 * the URL is not a replay. Keys and their devices are served from memory; the cache drops a key the
 * moment the bus says it changed (toggle, delete, revoke), and every key when the bus resyncs after
 * a Redis outage. A call that is granted counts one use of
 * the key, queued in PendingWrites, and where it came from (key-sharing signals; the feed checks keys
 * here too, so its calls count as well). Decisions that need no database come back synchronously.
 */
export class LoaderAccess {
  private readonly keys = new LoaderCache<CachedScriptKey>();
  /**
   * License key -> the script key it resolves to (that link never changes while both exist; a script
   * key deleted since is simply not found in `keys`, and the license key is resolved again).
   */
  private readonly licenses = new Map<string, string>();
  private readonly unsubscribes: Array<() => void>;

  constructor(
    private readonly ctx: AppContext,
    private readonly pending: PendingWrites,
  ) {
    this.unsubscribes = [
      onScriptKeyChanged(ctx, (scriptKey) => this.keys.invalidate(scriptKey)),
      // Changes may have been missed while Redis was away: every key is read again.
      ctx.bus.onResync(() => this.keys.clear()),
    ];
  }

  close(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.keys.clear();
    this.licenses.clear();
  }

  /** The script key `given` stands for, as far as this instance knows (a resolved license key's). */
  scriptKeyOf(given: string): string {
    return this.licenses.get(given) ?? given;
  }

  /**
   * Whether this instance holds `given` as a usable non-FREE key with `hwid` bound and active: a
   * lookup in memory only (nothing read, nothing counted), false for a key not read yet. The feed
   * counts such a caller's polls against its premium limit; a made-up key never gets there.
   */
  holdsPremium(given: string, hwid: string | undefined): boolean {
    const key = this.keys.get(this.licenses.get(given) ?? given);
    if (key === undefined || hwid === undefined || keyRefusal(key, this.ctx.now()) !== undefined)
      return false;
    return key.bindings.get(hwid)?.active === true;
  }

  check(request: PremiumRequest): AccessDecision | Promise<AccessDecision> {
    if (request.key === undefined) return KEY_REQUIRED;
    const scriptKey = this.licenses.get(request.key) ?? request.key;
    const key = this.keys.get(scriptKey);
    if (key === undefined) return this.checkUncached(request, request.key);
    return this.decide(key, request);
  }

  /** Reads the key (a license key: the script key it resolves to, made on its first use). */
  private async checkUncached(request: PremiumRequest, given: string): Promise<AccessDecision> {
    let scriptKey = given;
    if (looksLikeLicenseKey(given)) {
      const row = await resolveLicenseKey(this.ctx, given);
      if (row === undefined) return UNKNOWN_KEY;
      scriptKey = row.script_key;
      // Bounded like the key cache: a flood of made-up license keys never resolves, so never lands here.
      if (this.licenses.size >= MAX_LICENSE_ALIASES) this.licenses.clear();
      this.licenses.set(given, scriptKey);
    }
    const key = await this.keys.fill(scriptKey, () => readScriptKey(this.ctx.db, scriptKey, this.ctx.now()));
    if (key === undefined) return UNKNOWN_KEY;
    return this.decide(key, request);
  }

  private decide(key: CachedScriptKey, request: PremiumRequest): AccessDecision | Promise<AccessDecision> {
    const now = this.ctx.now();
    const refused = keyRefusal(key, now);
    if (refused !== undefined) return refused;
    const hwid = request.hwid;
    if (hwid === undefined) return BOOTSTRAP;
    if (request.nonce !== undefined && request.sig !== undefined) {
      return this.verifyChallenge(key, request, hwid, request.nonce, request.sig, now);
    }
    return this.serveDevice(key, request, hwid, now);
  }

  private serveDevice(
    key: CachedScriptKey,
    request: PremiumRequest,
    hwid: string,
    now: number,
  ): AccessDecision | Promise<AccessDecision> {
    const binding = key.bindings.get(hwid);
    if (binding === undefined) {
      const until = key.removed.get(hwid);
      if (until !== undefined && until > now) return removedDevice(until);
      return this.bindNewDevice(key, request, hwid, now);
    }
    if (!binding.active) return REVOKED_DEVICE;
    return this.grant(key, binding.id, request, now);
  }

  /** A served call: one use of the key and its device, and where it came from (key-sharing signals). */
  private grant(
    key: CachedScriptKey,
    bindingId: number,
    request: PremiumRequest,
    now: number,
  ): AccessDecision {
    this.pending.keyUse(key.id, key.scriptKey, bindingId, now);
    this.ctx.services.keySharing.recordUse(key.id, request.ip, now);
    return key.granted;
  }

  /** A device this key has not been seen with: bind it if the key has room (every attempt audited). */
  private async bindNewDevice(
    key: CachedScriptKey,
    request: PremiumRequest,
    hwid: string,
    now: number,
  ): Promise<AccessDecision> {
    const device = deviceFromUserAgent(request.userAgent);
    const outcome = await bindDeviceToScriptKey(this.ctx, key.id, hwid, now, device);
    switch (outcome.kind) {
      case 'key-changed': {
        // The cached copy is older than the database (a change still on its way over the bus).
        this.keys.invalidate(key.scriptKey);
        if (!outcome.row) return UNKNOWN_KEY;
        return keyRefusal(toCachedScriptKey(outcome.row, []), now) ?? UNKNOWN_KEY;
      }
      case 'removed':
        key.removed.set(hwid, outcome.until);
        return removedDevice(outcome.until);
      case 'known':
        key.bindings.set(hwid, { id: outcome.bindingId, active: outcome.active });
        if (!outcome.active) return REVOKED_DEVICE;
        return this.grant(key, outcome.bindingId, request, now);
      case 'limit':
      case 'bound': {
        const bound = outcome.kind === 'bound';
        this.pending.audit(
          {
            eventType: 'binding_attempt',
            success: bound,
            licenseKey: key.scriptKey,
            ipAddress: request.ip,
            hardwareId: hwid,
            details: {
              scriptKeyId: key.id,
              activeBindings: outcome.activeBindings,
              maxBindings: outcome.maxBindings,
            },
          },
          now,
        );
        if (outcome.kind === 'limit') return refusal(403, ACCESS_TEXTS.deviceLimit(outcome.maxBindings));
        key.bindings.set(hwid, { id: outcome.bindingId, active: true });
        return this.grant(key, outcome.bindingId, request, now);
      }
    }
  }

  /**
   * Challenge mode: sig must be hex(HMAC-SHA256(key, nonce + hwid + script)), compared in constant
   * time, and the nonce must be one the server issued to this key and device, unused and unexpired.
   * The nonce is spent by the first call that presents it, signed right or wrong, so the same URL
   * never loads twice and a guessed signature costs a fresh nonce each time.
   */
  private async verifyChallenge(
    key: CachedScriptKey,
    request: PremiumRequest,
    hwid: string,
    nonce: string,
    sig: string,
    now: number,
  ): Promise<AccessDecision> {
    const expected = Buffer.from(
      createHmac('sha256', key.scriptKey)
        .update(nonce + hwid + request.script)
        .digest('hex'),
    );
    const given = Buffer.from(sig.toLowerCase());
    const signed = given.length === expected.length && timingSafeEqual(given, expected);
    const spentFor = await spendChallengeNonce(this.ctx.db, { nonce, scriptKeyId: key.id }, now);
    const audit = { licenseKey: key.scriptKey, ipAddress: request.ip, hardwareId: hwid };
    const details = { scriptKeyId: key.id, script: request.script, nonce };
    this.pending.audit({ eventType: 'hmac_verification', success: signed, ...audit, details }, now);
    if (!signed) return BAD_SIGNATURE;
    const verified = spentFor === hwid;
    this.pending.audit({ eventType: 'challenge_verified', success: verified, ...audit, details }, now);
    if (!verified) return NONCE_REFUSED;
    return this.serveDevice(key, request, hwid, now);
  }
}
