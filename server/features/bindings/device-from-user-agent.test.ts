import { describe, expect, it } from 'vitest';
import { deviceFromUserAgent } from './device-from-user-agent.ts';

describe("a binding's device, from the loader call's User-Agent", () => {
  it('names the executor or client and the system the header names', () => {
    expect(deviceFromUserAgent('Roblox/WinInet')).toEqual({
      deviceName: 'Roblox WinInet',
      os: 'Windows',
      deviceType: 'desktop',
    });
    expect(deviceFromUserAgent('Delta/2.6 (Linux; Android 13)')).toEqual({
      deviceName: 'Delta 2.6',
      os: 'Android',
      deviceType: 'mobile',
    });
    expect(deviceFromUserAgent('Solara')).toEqual({ deviceName: 'Solara' });
  });

  it('says nothing without a header, and keeps a long one within the stored bound', () => {
    expect(deviceFromUserAgent(undefined)).toBeNull();
    expect(deviceFromUserAgent('   ')).toBeNull();
    expect(deviceFromUserAgent('x'.repeat(500))?.deviceName).toHaveLength(100);
  });
});
