import type { Transaction } from 'kysely';
import { KEY_SHARING_TEXTS } from '../../../common/script-keys.ts';
import type { AppContext } from '../../context.ts';
import type { BatchWriter, RowKind } from '../../db/batch-writer.ts';
import type { Database } from '../../db/database.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  countKeyAddresses,
  disableScriptKeyWithReason,
  type KeyAddressSighting,
  upsertKeyAddress,
} from './key-sharing.store.ts';
import { type SharingAddress, sharingAddressOf } from './key-sharing-address.ts';
import { announceScriptKeyChanged } from './script-keys.service.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Where each script key is used from (key-sharing signals); the loader and the feed tell it. */
    keySharing: KeySharing;
  }
}

const HOUR_MS = 60 * 60 * 1000;
/** A key seen again at the same address within this long is not written again (the hot path's cost). */
export const SIGHTING_EVERY_MS = 60_000;
/** (key, address) pairs this instance remembers at most; past it the oldest are forgotten (a flood of addresses cannot grow memory). */
const MAX_REMEMBERED = 100_000;
/** Callers' addresses remembered as parsed at most, before that memory is cleared. */
const MAX_PARSED_ADDRESSES = 10_000;

/** The window's start and the thresholds, as the settings say. */
export function keySharingLimits(ctx: AppContext, now: number) {
  return {
    since: now - ctx.config.KEY_SHARING_WINDOW_HOURS * HOUR_MS,
    windowHours: ctx.config.KEY_SHARING_WINDOW_HOURS,
    addressThreshold: ctx.config.KEY_SHARING_ADDRESS_THRESHOLD,
    networkThreshold: ctx.config.KEY_SHARING_NETWORK_THRESHOLD,
  };
}

/**
 * Key-sharing signals. `recordUse` is called on every served loader call (and feed call): a map
 * lookup, and at most once a minute per key and address a row handed to the app's batched writer,
 * which writes it within a second with whatever else is queued. So the table holds, on every
 * instance's behalf, when each key was last used from each address; the admin's list counts it.
 *
 * With KEY_SHARING_AUTO_DISABLE, the same transaction that records a sighting counts the key's
 * addresses and networks in the window and, over either threshold, switches the key off with the
 * reason its buyer sees (conditional on it being on, so two instances audit it once); after the
 * commit every loader drops its cached copy.
 */
export class KeySharing {
  /** `${keyId} ${address}` -> when it was last handed to the writer; in that order (oldest first). */
  private readonly lastQueued = new Map<string, number>();
  /** A caller's address text -> how it is counted: parsed once, not on every call of the hot path. */
  private readonly parsed = new Map<string, SharingAddress>();
  /** Keys switched off by a batch, until that batch commits. */
  private readonly switchedOff = new WeakMap<KeyAddressSighting[], string[]>();
  private readonly rows: RowKind<KeyAddressSighting>;

  constructor(
    private readonly ctx: AppContext,
    private readonly writer: BatchWriter,
  ) {
    this.rows = {
      table: 'script_key_addresses',
      keyOf: (row) => `${row.scriptKeyId} ${row.address}`,
      merge: (queued, next) => (next.seenAt > queued.seenAt ? next : queued),
      write: (trx, rows) => this.write(trx, rows),
      committed: (rows) => this.announce(rows),
    };
  }

  /** One served use of the key from `ip` (the caller's address as the request sees it). */
  recordUse(scriptKeyId: number, ip: string, now: number): void {
    const { address, network } = this.addressOf(ip);
    const pair = `${scriptKeyId} ${address}`;
    const last = this.lastQueued.get(pair);
    if (last !== undefined && now >= last && now - last < SIGHTING_EVERY_MS) return;
    // Deleted and set again, so the map stays oldest first.
    this.lastQueued.delete(pair);
    this.forgetOld(now);
    this.lastQueued.set(pair, now);
    this.writer.add(this.rows, { scriptKeyId, address, network, seenAt: now });
  }

  private addressOf(ip: string): SharingAddress {
    let counted = this.parsed.get(ip);
    if (counted === undefined) {
      if (this.parsed.size >= MAX_PARSED_ADDRESSES) this.parsed.clear();
      counted = sharingAddressOf(ip);
      this.parsed.set(ip, counted);
    }
    return counted;
  }

  /** Forgets pairs queued over a minute ago (from the oldest on) and, at the bound, the oldest one. */
  private forgetOld(now: number): void {
    for (const [pair, at] of this.lastQueued) {
      if (now >= at && now - at < SIGHTING_EVERY_MS) break;
      this.lastQueued.delete(pair);
    }
    if (this.lastQueued.size < MAX_REMEMBERED) return;
    const oldest = this.lastQueued.keys().next();
    if (!oldest.done) this.lastQueued.delete(oldest.value);
  }

  private async write(trx: Transaction<Database>, rows: KeyAddressSighting[]): Promise<void> {
    // In key order, so two instances writing at once take the rows' locks in the same order.
    const sorted = [...rows].sort(
      (a, b) => a.scriptKeyId - b.scriptKeyId || (a.address < b.address ? -1 : 1),
    );
    for (const row of sorted) await upsertKeyAddress(trx, row);
    if (!this.ctx.config.KEY_SHARING_AUTO_DISABLE) return;
    const switched: string[] = [];
    for (const id of new Set(sorted.map((row) => row.scriptKeyId))) {
      const scriptKey = await this.disableIfShared(trx, id);
      if (scriptKey !== undefined) switched.push(scriptKey);
    }
    this.switchedOff.set(rows, switched);
  }

  /** Switches the key off when it is over a threshold; returns the key when this call did. */
  private async disableIfShared(
    trx: Transaction<Database>,
    scriptKeyId: number,
  ): Promise<string | undefined> {
    const now = this.ctx.now();
    const limits = keySharingLimits(this.ctx, now);
    const seen = await countKeyAddresses(trx, scriptKeyId, limits.since);
    if (seen.addresses <= limits.addressThreshold && seen.networks <= limits.networkThreshold) return;
    const reason = KEY_SHARING_TEXTS.disabledReason(seen.addresses, seen.networks, limits.windowHours);
    const scriptKey = await disableScriptKeyWithReason(trx, scriptKeyId, reason);
    if (scriptKey === undefined) return;
    await insertAuditLog(
      trx,
      {
        eventType: 'script_key_status_changed',
        success: true,
        licenseKey: scriptKey,
        details: {
          id: scriptKeyId,
          isActive: 0,
          by: 'key-sharing',
          reason,
          addresses: seen.addresses,
          networks: seen.networks,
          windowHours: limits.windowHours,
        },
      },
      now,
    );
    return scriptKey;
  }

  /** Writes the sightings queued so far (the admin's list reads them right after). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** After the commit: every loader drops the keys this batch switched off; the admin screens refresh. */
  private announce(rows: KeyAddressSighting[]): void {
    const switched = this.switchedOff.get(rows) ?? [];
    this.switchedOff.delete(rows);
    if (switched.length === 0) return;
    void (async () => {
      for (const scriptKey of switched) await announceScriptKeyChanged(this.ctx, scriptKey);
      await announceLicensingChanged(this.ctx, 'script_key');
    })();
  }
}
