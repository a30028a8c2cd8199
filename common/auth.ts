import { z } from 'zod';

export const LoginRequestSchema = z.object({
  adminSecret: z.string({ error: 'adminSecret is required' }).trim().min(1, 'Admin secret is required'),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** POST /api/admin/login: signed in; the session cookie lasts `expiresIn` seconds. */
export const LoginResponseSchema = z.object({ success: z.literal(true), expiresIn: z.number() });

/** The admin session cookie's name (HttpOnly: only the server reads it; the socket and plugins check it). */
export const SESSION_COOKIE = 'scanline_session';

/** Texts the login form and the server share. */
export const LOGIN_TEXTS = {
  required: 'Admin secret is required',
  invalid: 'Invalid admin secret',
  connection: 'Connection error. Please try again.',
  failed: 'Login failed',
  tooMany: 'Too many failed login attempts. Try again in 15 minutes.',
  /** 429 when the secret could not be checked now (too many waiting); it counts as a failed login. */
  busy: 'Too many sign-ins are being checked: try again in a moment',
} as const;

/** Failed logins allowed per IP within the window before the login answers 429. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Admin sessions last 24 hours. */
export const ADMIN_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
