import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Feature } from '../../feature.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { alertChecks } from './alert-checks.ts';
import { AlertMonitor } from './alert-monitor.ts';
import { type DiskSpaceReader, statfsDiskReader } from './disk-alert.ts';

declare module '../../context.ts' {
  interface AppServices {
    /** Operator alerts: the fleet, payments, notifications and disk watched, each change told once. */
    alertMonitor: AlertMonitor;
    /** How the disk monitor reads free space (statfs; tests give it a disk of their own). */
    diskSpace: DiskSpaceReader;
  }
}

/**
 * Operator alerts (docs/notifications.md, "Operator alerts"): watches what the features below report
 * and queues one alert per change for the destinations marked for alerts.
 */
export const alertsFeature = {
  name: 'alerts',
  services: (ctx, app) => ({
    diskSpace: statfsDiskReader,
    alertMonitor: new AlertMonitor(
      ctx,
      app.log,
      alertChecks(ctx),
      // Two instances on one host (or two test apps in one process) hold the lease apart.
      `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    ),
  }),
  jobs: (app, ctx) => {
    schedulePeriodicSweep(app, {
      name: 'operator alerts',
      everyMs: ctx.config.ALERT_CHECK_MS,
      run: async () => {
        await ctx.services.alertMonitor.check();
        // It deletes nothing (the sweep's log line counts deletions); raised alerts are logged as they go.
        return 0;
      },
    });
    app.addHook('onClose', () => ctx.services.alertMonitor.close());
  },
} satisfies Feature;
