import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { chooseLogFormat } from './log-output.ts';
import { adminSecretBanner, settingsForTheLog } from './start-notices.ts';

describe('the log format', () => {
  it('is pretty on a terminal and JSON lines otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat(undefined, true, true)).toEqual({ format: 'pretty' });
    expect(chooseLogFormat(undefined, false, true)).toEqual({ format: 'json' });
    expect(chooseLogFormat('json', true, true)).toEqual({ format: 'json' });
    expect(chooseLogFormat('pretty', false, true)).toEqual({ format: 'pretty' });
  });

  it('falls back to JSON lines without pino-pretty, saying so when pretty was asked for by name', () => {
    expect(chooseLogFormat(undefined, true, false)).toEqual({ format: 'json' });
    expect(chooseLogFormat('pretty', true, false)).toEqual({
      format: 'json',
      note: 'LOG_FORMAT=pretty needs the pino-pretty package, which is not installed: writing JSON lines',
    });
  });

  it('is read from LOG_FORMAT, empty meaning unset, and refuses anything else', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ LOG_FORMAT: '' }).LOG_FORMAT).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('what the server says when it starts', () => {
  it('frames the generated admin secret in a block of its own', () => {
    const banner = adminSecretBanner('s3cret-generated', 'http://localhost:5000/admin/login');
    expect(banner).toMatch(/\n={72}\n[^=]*\n {4}Admin secret: s3cret-generated\n[^=]*\n={72}\n/);
    expect(banner).toContain('Sign in at http://localhost:5000/admin/login');
  });

  it('logs the settings without a secret, whatever is configured', () => {
    const secrets = {
      ADMIN_SECRET: 'admin-secret-value',
      BOT_TOKEN: 'bot-token-value',
      METRICS_TOKEN: 'metrics-token-value',
      DATABASE_URL: 'postgres://scanline:db-password@db.internal:5432/scanline',
      REDIS_URL: 'redis://:redis-password@cache.internal:6379',
    };
    const settings = settingsForTheLog(loadConfig(secrets), 'postgres', 'json');
    expect(settings).toMatchObject({
      database: 'postgres',
      redis: 'on',
      logLevel: 'info',
      logFormat: 'json',
    });
    const text = JSON.stringify(settings);
    for (const value of [
      'admin-secret-value',
      'bot-token-value',
      'metrics-token-value',
      'db-password',
      'redis-password',
    ])
      expect(text).not.toContain(value);
  });
});
