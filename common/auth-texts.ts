/*
 * The sign-in's texts, apart from its schemas (common/auth.ts): the login screen is the first thing the
 * console paints, and zod would be a third of its code (issue 39).
 */

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
