import type { Feature } from '../../feature.ts';
import { registerAdminGuard } from './admin-guard.ts';
import { AdminSecretChecks } from './admin-secret.ts';
import { authRoutes } from './auth.routes.ts';
import { scheduleLoginAttemptsSweep } from './login-attempts-sweep.ts';
import { LoginLockout } from './login-lockout.ts';

/** Admin sign-in and sign-out, and the guard that asks every /api/admin/* call for a session. */
export const authFeature = {
  name: 'auth',
  guard: registerAdminGuard,
  services: (ctx) => ({ adminSecret: new AdminSecretChecks(ctx), loginLockout: new LoginLockout(ctx) }),
  jobs: scheduleLoginAttemptsSweep,
  routes: [authRoutes],
} satisfies Feature;
