import type { FastifyInstance } from 'fastify';
import { LOGIN_FAILURE_WINDOW_MS } from '../../../common/auth.ts';
import type { AppContext } from '../../context.ts';
import { schedulePeriodicSweep } from '../../plugins/periodic-sweep.ts';
import { deleteLoginAttemptsBefore } from './login-attempts.store.ts';

/** How often the lockout's ended windows are deleted (and once at start). */
export const LOGIN_ATTEMPTS_SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Deletes the lockout rows whose window has ended, so addresses that come once do not pile up. */
export function scheduleLoginAttemptsSweep(app: FastifyInstance, ctx: AppContext): void {
  schedulePeriodicSweep(app, {
    name: 'ended failed-login windows',
    everyMs: LOGIN_ATTEMPTS_SWEEP_EVERY_MS,
    run: () => deleteLoginAttemptsBefore(ctx.db, ctx.now() - LOGIN_FAILURE_WINDOW_MS),
  });
}
