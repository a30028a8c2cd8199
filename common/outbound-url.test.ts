import { describe, expect, it } from 'vitest';
import { checkUrlShape, OUTBOUND_URL_TEXTS, type OutboundPolicy } from './outbound-url.ts';

const STRICT: OutboundPolicy = { allowHosts: [], allowPrivate: false };
const problem = (raw: string, kind: 'discord' | 'json', policy: OutboundPolicy = STRICT) => {
  const shape = checkUrlShape(raw, kind, policy);
  return 'problem' in shape ? shape.problem : null;
};

describe('checkUrlShape', () => {
  it('takes a Discord webhook and any https JSON endpoint', () => {
    expect(problem('https://discord.com/api/webhooks/123/abc_DEF-1', 'discord')).toBeNull();
    expect(problem('https://hooks.example.com/finds', 'json')).toBeNull();
  });

  it('asks for https, saying how plain http to a private address is allowed', () => {
    expect(problem('http://hooks.example.com/finds', 'json')).toBe(OUTBOUND_URL_TEXTS.https);
    expect(OUTBOUND_URL_TEXTS.https).toContain('NOTIFY_ALLOW_PRIVATE=true');
    expect(problem('ftp://hooks.example.com/finds', 'json')).toBe(OUTBOUND_URL_TEXTS.https);
    // With NOTIFY_ALLOW_PRIVATE the address decides (the server resolves it): not refused here.
    expect(problem('http://10.0.0.5:8080/hook', 'json', { allowHosts: [], allowPrivate: true })).toBeNull();
  });

  it("refuses what is no URL, credentials, and a Discord destination off Discord's hosts or path", () => {
    expect(problem('not a url', 'json')).toBe(OUTBOUND_URL_TEXTS.invalid);
    expect(problem('https://user:pw@hooks.example.com/', 'json')).toBe(OUTBOUND_URL_TEXTS.credentials);
    expect(problem('https://example.com/api/webhooks/1/a', 'discord')).toBe(OUTBOUND_URL_TEXTS.discordHost);
    expect(problem('https://discord.com/channels/1', 'discord')).toBe(OUTBOUND_URL_TEXTS.discordPath);
    const bridge = { allowHosts: ['bridge.example.com'], allowPrivate: false };
    expect(problem('https://bridge.example.com/api/webhooks/1/a', 'discord', bridge)).toBeNull();
  });
});
