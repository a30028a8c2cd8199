import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  BotMessageSchemas,
  BotMessageType,
  PetDiscovery,
  ServerHopEvent,
} from '../../../common/fleet.ts';
import { parsePetValue } from '../../../common/pet-value.ts';
import type { ScannerRecord } from './fleet-records.ts';

/*
 * What each bot message changes, worked out without any I/O: a scanner's record after a hello, a
 * status report or the server's error flag, and the hop or discovery event a report becomes.
 */

/** A bot message's payload, as its schema parsed it. */
export type Payload<T extends BotMessageType> = z.infer<(typeof BotMessageSchemas)[T]>;

/** A bot that says hello (again, or for the first time when `known` is undefined). */
export function scannerAfterHello(
  ghostId: string,
  known: ScannerRecord | undefined,
  version: string | null,
  now: number,
): ScannerRecord {
  return {
    ghostId,
    status: 'active',
    scansPerMinute: known?.scansPerMinute ?? 0,
    petsFound: known?.petsFound ?? 0,
    uptime: known?.uptime ?? 100,
    currentJobId: known?.currentJobId ?? null,
    version: version ?? known?.version ?? null,
    // A bot saying hello again starts over: the server's error flag is lifted.
    errorReason: null,
    lastActivity: now,
    firstSeen: known?.firstSeen ?? now,
    rev: (known?.rev ?? 0) + 1,
  };
}

export function scannerAfterStatus(
  known: ScannerRecord,
  report: Payload<'scanner_status'>,
  now: number,
): ScannerRecord {
  // An error the server flagged stays until the bot hops successfully or says hello again; an
  // error the bot reports itself is taken as is.
  const flagged = known.status === 'error' && known.errorReason !== null;
  return {
    ...known,
    status: flagged ? 'error' : report.status,
    errorReason: flagged ? known.errorReason : null,
    scansPerMinute: report.scansPerMinute ?? known.scansPerMinute,
    petsFound: report.petsFound ?? known.petsFound,
    uptime: report.uptime ?? known.uptime,
    currentJobId: report.currentJobId === undefined ? known.currentJobId : report.currentJobId,
    lastActivity: now,
    rev: known.rev + 1,
  };
}

/** A bot the server flags `error` with a reason (the server pool, after failure on failure). */
export function scannerFlagged(
  ghostId: string,
  known: ScannerRecord | undefined,
  reason: string,
  now: number,
): ScannerRecord {
  return {
    ghostId,
    status: 'error',
    scansPerMinute: known?.scansPerMinute ?? 0,
    petsFound: known?.petsFound ?? 0,
    uptime: known?.uptime ?? 0,
    currentJobId: known?.currentJobId ?? null,
    version: known?.version ?? null,
    errorReason: reason.slice(0, 500),
    lastActivity: known?.lastActivity ?? now,
    firstSeen: known?.firstSeen ?? now,
    rev: (known?.rev ?? 0) + 1,
  };
}

export function hopOf(
  ghostId: string,
  seq: number,
  report: Payload<'server_hop'>,
  now: number,
): ServerHopEvent {
  return {
    id: randomUUID(),
    seq,
    botId: ghostId,
    scannerId: ghostId,
    fromJobId: report.fromJobId,
    toJobId: report.toJobId,
    fromPlaceId: report.fromPlaceId,
    toPlaceId: report.toPlaceId,
    success: report.success,
    latencyMs: report.latencyMs,
    errorMessage: report.errorMessage ?? null,
    hopReason: report.hopReason,
    timestamp: new Date(now).toISOString(),
    attemptNumber: report.attemptNumber,
    totalServersAttempted: report.totalServersAttempted,
  };
}

export function discoveryOf(
  ghostId: string,
  seq: number,
  report: Payload<'pet_discovered'>,
  now: number,
): PetDiscovery {
  return {
    id: randomUUID(),
    seq,
    name: report.name,
    type: report.type,
    value: report.value,
    numericValue: parsePetValue(report.value),
    count: report.count,
    timestamp: new Date(now).toISOString(),
    placeid: report.placeid,
    jobid: report.jobid,
    scannerId: ghostId,
    botId: ghostId,
  };
}
