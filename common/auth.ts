import { z } from 'zod';
import { LOGIN_TEXTS } from './auth-texts.ts';

export const LoginRequestSchema = z.object({
  adminSecret: z.string({ error: 'adminSecret is required' }).trim().min(1, LOGIN_TEXTS.required),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** POST /api/admin/login: signed in; the session cookie lasts `expiresIn` seconds. */
export const LoginResponseSchema = z.object({ success: z.literal(true), expiresIn: z.number() });

/** The admin session cookie's name (HttpOnly: only the server reads it; the socket and plugins check it). */
export const SESSION_COOKIE = 'scanline_session';

// In a file without zod, so the login screen's code (web/pages/admin/shell) does not load it.
export { LOGIN_TEXTS };

/** Failed logins allowed per IP within the window before the login answers 429. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Admin sessions last 24 hours. */
export const ADMIN_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
