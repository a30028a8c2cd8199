import type { Feature } from '../../feature.ts';
import { registerAdminGuard } from './admin-guard.ts';
import { authRoutes } from './auth.routes.ts';

/** Admin sign-in and sign-out, and the guard that asks every /api/admin/* call for a session. */
export const authFeature = {
  name: 'auth',
  guard: registerAdminGuard,
  routes: [authRoutes],
} satisfies Feature;
