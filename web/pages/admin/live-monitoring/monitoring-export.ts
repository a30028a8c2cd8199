import type { NetworkStats, PetDiscovery, Scanner } from '../../../../common/fleet.ts';
import type { LiveEvent } from './fleet-feed.ts';

/** Spec section 9: the export takes the first 50 live events. */
export const EXPORT_LIVE_EVENTS = 50;

export interface MonitoringExport {
  timestamp: string;
  /** Null when no figures had arrived yet. */
  networkStats: NetworkStats | null;
  scanners: Scanner[];
  petDiscoveries: PetDiscovery[];
  liveEvents: LiveEvent[];
}

/** Spec section 7: the timestamp, network stats, scanners, the filtered discoveries and the first 50 live events. */
export function monitoringExport(
  input: Omit<MonitoringExport, 'timestamp'>,
  now: Date = new Date(),
): MonitoringExport {
  return {
    timestamp: now.toISOString(),
    networkStats: input.networkStats,
    scanners: input.scanners,
    petDiscoveries: input.petDiscoveries,
    liveEvents: input.liveEvents.slice(0, EXPORT_LIVE_EVENTS),
  };
}

/** 'live-monitoring-2026-11-23.json': the monitoring prefix and the (local) date. */
export function exportFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `live-monitoring-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

/** Saves `data` as a JSON file, entirely in the browser (no request). */
export function downloadJson(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
