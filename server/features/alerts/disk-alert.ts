import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AppContext } from '../../context.ts';
import { type AlertCheck, twoStateHoldMs } from './alert-rules.ts';

/*
 * The disk the data lives on: low below ALERT_DISK_MIN_FREE_PERCENT or ALERT_DISK_MIN_FREE_MB free,
 * and recovered only with a tenth more than that free, so a disk hovering at the line does not flap.
 */

/** Free and total bytes of the disk holding `path` (what an unprivileged process may use). */
export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/** Reads a disk's space; a service, so tests give the monitor a disk of their own. */
export interface DiskSpaceReader {
  read(path: string): Promise<DiskSpace>;
}

/**
 * statfs of `path`, or of its nearest directory that exists: a data directory not made yet (a
 * PostgreSQL install never writes ./data) lives on the disk of the directory above it.
 */
export const statfsDiskReader: DiskSpaceReader = {
  async read(path) {
    for (let dir = resolve(path); ; dir = dirname(dir)) {
      try {
        const stats = await statfs(dir);
        return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
      }
    }
  },
};

/** The directory watched: ALERT_DISK_PATH, else the SQLite file's directory, else ./data. */
export function watchedDiskPath(config: AppContext['config']): string {
  if (config.ALERT_DISK_PATH) return config.ALERT_DISK_PATH;
  const url = config.DATABASE_URL;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return './data';
  return url === ':memory:' ? '.' : dirname(url);
}

/** Room to spare before a low disk counts as recovered. */
const RECOVERY_MARGIN = 1.1;

const MB = 1024 * 1024;

/** 1.5 GB, 820 MB */
function sizeText(bytes: number): string {
  return bytes >= 1024 * MB ? `${(bytes / (1024 * MB)).toFixed(1)} GB` : `${Math.floor(bytes / MB)} MB`;
}

/** Whether `disk` is below the thresholds, each scaled by `margin`. */
export function diskIsLow(disk: DiskSpace, minPercent: number, minMb: number, margin = 1): boolean {
  const percent = disk.totalBytes > 0 ? (disk.freeBytes / disk.totalBytes) * 100 : 100;
  return (
    (minPercent > 0 && percent < minPercent * margin) || (minMb > 0 && disk.freeBytes < minMb * MB * margin)
  );
}

export function diskAlertCheck(ctx: AppContext): AlertCheck {
  const raiseMs = ctx.config.ALERT_RAISE_AFTER_SECONDS * 1000;
  const clearMs = ctx.config.ALERT_CLEAR_AFTER_SECONDS * 1000;
  const minPercent = ctx.config.ALERT_DISK_MIN_FREE_PERCENT;
  const minMb = ctx.config.ALERT_DISK_MIN_FREE_MB;
  const path = watchedDiskPath(ctx.config);
  return {
    kind: 'disk',
    sink: 'outbox',
    goodState: 'ok',
    holdMs: (_alerted, observed) => twoStateHoldMs('ok', observed, raiseMs, clearMs),
    async observe(alerted) {
      const disk = await ctx.services.diskSpace.read(path);
      const low = diskIsLow(disk, minPercent, minMb, alerted === 'low' ? RECOVERY_MARGIN : 1);
      const percent = disk.totalBytes > 0 ? Math.floor((disk.freeBytes / disk.totalBytes) * 100) : 100;
      const free = `${sizeText(disk.freeBytes)} free of ${sizeText(disk.totalBytes)} (${percent}%) on ${path}`;
      const rules = [minPercent > 0 ? `${minPercent}%` : '', minMb > 0 ? sizeText(minMb * MB) : '']
        .filter(Boolean)
        .join(' or ');
      return low
        ? {
            state: 'low',
            words: () => ({
              title: 'Disk space low',
              message: `${free}: below ${rules}`,
              severity: 'warning',
            }),
          }
        : {
            state: 'ok',
            words: () => ({ title: 'Disk space recovered', message: free, severity: 'ok' }),
          };
    },
  };
}
