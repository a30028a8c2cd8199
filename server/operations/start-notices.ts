import type { Config } from '../config.ts';
import type { DialectName } from '../db/index.ts';
import type { LogFormat } from './log-output.ts';

/*
 * What the server says when it starts, besides its log: the address, and on the first start the
 * generated admin secret, framed so it is found at a glance. The log itself gets the settings, never
 * a secret.
 */

const RULE = '='.repeat(72);

/**
 * The generated admin secret as a framed block of plain text (not a log line: no JSON to dig it out
 * of, and it never reaches a log file that only collects the JSON lines' fields). Printed once.
 */
export function adminSecretBanner(secret: string, signInUrl: string): string {
  return [
    '',
    RULE,
    '  No ADMIN_SECRET was set, so one was generated. It is shown only this once;',
    '  only its hash is stored.',
    '',
    `    Admin secret: ${secret}`,
    '',
    `  Sign in at ${signInUrl}`,
    '  Set ADMIN_SECRET to choose your own.',
    RULE,
    '',
    '',
  ].join('\n');
}

/**
 * The settings the start-up log line shows: what decides how this instance behaves, by name. An
 * allowlist, so a secret added to the configuration later (a token, a URL with a password in it)
 * never reaches the log: the database and Redis are shown by kind only.
 */
export function settingsForTheLog(config: Config, dialect: DialectName, logFormat: LogFormat) {
  return {
    port: config.PORT,
    host: config.HOST,
    database: dialect,
    redis: config.REDIS_URL ? 'on' : 'off',
    logLevel: config.LOG_LEVEL,
    logFormat,
    trustProxy: config.TRUST_PROXY,
    cookieSecure: config.COOKIE_SECURE,
    publicUrl: config.PUBLIC_URL ?? null,
    metrics: config.METRICS_ENABLED,
    notifyDispatch: config.NOTIFY_DISPATCH,
    botTokenLegacy: config.BOT_TOKEN_LEGACY,
    webDist: config.WEB_DIST,
    scriptsDir: config.SCRIPTS_DIR,
  };
}
