import type { DeviceInfo } from '../../../common/hardware-bindings.ts';

/*
 * What a loader call's User-Agent says of the device it binds: an executor sends its own name
 * ("Delta/2.6 Android", "Roblox/WinInet"), so the bindings screen can tell a buyer's PCs apart
 * without the script sending anything more. Only what the header names; nothing guessed.
 */

const SYSTEMS: Array<[RegExp, string, string]> = [
  [/android/i, 'Android', 'mobile'],
  [/iphone|ipad|\bios\b/i, 'iOS', 'mobile'],
  [/windows|wininet|winhttp/i, 'Windows', 'desktop'],
  [/mac ?os|macintosh|darwin/i, 'macOS', 'desktop'],
  [/linux/i, 'Linux', 'desktop'],
];

/** The device as the header names it: the first product (name and version) and the system when named; null without one. */
export function deviceFromUserAgent(userAgent: string | undefined): DeviceInfo | null {
  const text = userAgent?.trim();
  if (!text) return null;
  const product = /^[^\s;()]+/.exec(text)?.[0] ?? text;
  const [name, version] = product.split('/', 2);
  const system = SYSTEMS.find(([pattern]) => pattern.test(text));
  return {
    deviceName: (version ? `${name} ${version}` : (name ?? product)).slice(0, 100),
    ...(system ? { os: system[1], deviceType: system[2] } : {}),
  };
}
