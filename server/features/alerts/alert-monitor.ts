import type { FastifyBaseLogger } from 'fastify';
import type { AlertKind, OperatorAlert } from '../../../common/notifications.ts';
import type { AppContext } from '../../context.ts';
import { acquireLease, releaseLease } from '../../db/leases.ts';
import { Turns } from '../../turns.ts';
import { queueAlertDeliveries } from '../notifications/alert-outbox.ts';
import { type AlertCheck, decide, type Observation, type StoredAlertState } from './alert-rules.ts';
import { changeAlertState, findAlertState, insertAlertState, insertOperatorAlert } from './alerts.store.ts';

/*
 * The alert monitor: every ALERT_CHECK_MS (on the app's clock) the instance holding the
 * 'operator-alerts' lease looks at each check, and a change that held through the hysteresis
 * (alert-rules.ts) becomes one alert, queued for every alerts destination in the transaction that
 * stores it as alerted. Everything it knows is in the database, so a restart, or another instance
 * taking the lease over, goes on where it was and never alerts a change twice.
 */

export const ALERTS_LEASE = 'operator-alerts';

export class AlertMonitor {
  private readonly turns = new Turns();
  private holding = false;
  /** Closed with the app: a round asked for later does nothing (and takes no lease). */
  private closed = false;
  /** The last failure logged per kind, so a check failing every round is logged once per change. */
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly checks: AlertCheck[],
    private readonly instanceId: string,
  ) {}

  /** One look at every check (the sweep's round; tests call it after moving the clock). Returns alerts raised. */
  check(): Promise<number> {
    return this.turns.run(() => this.lookAtAll());
  }

  /** After the look in progress, gives the lease up (the app closes), so another instance takes over at once. */
  close(): Promise<void> {
    this.closed = true;
    return this.turns.run(async () => {
      if (this.holding) await releaseLease(this.ctx.db, ALERTS_LEASE, this.instanceId).catch(() => {});
      this.holding = false;
    });
  }

  private async lookAtAll(): Promise<number> {
    const { ctx } = this;
    if (this.closed) return 0;
    // Outlives a round's pause, so the holder keeps it from one round to the next.
    const ttlMs = ctx.config.ALERT_CHECK_MS * 2 + 30_000;
    this.holding = await acquireLease(ctx.db, ALERTS_LEASE, this.instanceId, ctx.now(), ttlMs);
    if (!this.holding) return 0;
    let raised = 0;
    for (const check of this.checks) {
      try {
        if (await this.lookAt(check)) raised += 1;
        this.failures.delete(check.kind);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (this.failures.get(check.kind) !== text) {
          this.failures.set(check.kind, text);
          this.log.warn(
            { err: error, kind: check.kind },
            'operator alerts: a check failed (its state is kept)',
          );
        }
      }
    }
    return raised;
  }

  /** One look at one check; true when it raised an alert. */
  private async lookAt(check: AlertCheck): Promise<boolean> {
    const { ctx } = this;
    let stored = await findAlertState(ctx.db, check.kind);
    const observation = await check.observe(stored?.alertedState ?? null);
    if (!observation) return false;
    const now = ctx.now();
    if (!stored) {
      // The first look: the good state counts as alerted, so only a bad one is told, after its hold.
      await insertAlertState(ctx.db, check.kind, check.goodState, now);
      stored = await findAlertState(ctx.db, check.kind);
      if (!stored) return false;
    }
    const holdMs = check.holdMs(stored.alertedState, observation.state);
    const decision = decide(stored, observation.state, now, holdMs, ctx.config.ALERT_CHECK_MS * 3);
    switch (decision.type) {
      case 'none':
        return false;
      case 'settle':
        await changeAlertState(ctx.db, check.kind, stored.version, { watch: null }, now);
        return false;
      case 'watch': {
        const watch = { observed: observation.state, since: decision.since };
        await changeAlertState(ctx.db, check.kind, stored.version, { watch }, now);
        return false;
      }
      case 'raise':
        return this.raise(check, stored, observation, now);
    }
  }

  private async raise(
    check: AlertCheck,
    stored: StoredAlertState,
    observation: Observation,
    now: number,
  ): Promise<boolean> {
    const { ctx } = this;
    const words = await observation.words(stored.alertedState);
    const alert: OperatorAlert = {
      kind: check.kind as AlertKind,
      state: observation.state,
      previous: stored.alertedState,
      ...words,
      at: new Date(now).toISOString(),
    };
    const queued = await ctx.db.transaction().execute(async (trx) => {
      // Of two instances (or a restart racing its old self) only one moves the version on.
      const change = { alerted: observation.state };
      if (!(await changeAlertState(trx, check.kind, stored.version, change, now))) return null;
      if (check.sink === 'log') return 0;
      const id = await insertOperatorAlert(trx, alert, now);
      return queueAlertDeliveries(trx, id, alert, now);
    });
    if (queued === null) return false;
    const fields = { kind: check.kind, state: alert.state, previous: alert.previous };
    if (check.sink === 'log') {
      const line = `operator alerts: ${alert.title}: ${alert.message}`;
      if (alert.severity === 'ok') this.log.info(fields, line);
      else this.log.warn(fields, line);
    } else {
      this.log.info({ ...fields, destinations: queued }, `operator alert: ${alert.title}`);
    }
    return true;
  }
}
