import { ACCESS_TEXTS } from './loader-access.ts';

/*
 * What the loader sends when it refuses. An executor runs whatever comes back through
 * loadstring(), so a refusal is itself a tiny Lua chunk that tells the user why, never JSON or HTML
 * (which would only surface as a confusing syntax error in the executor).
 */

/** The prefix every loader message carries in the executor's console. */
const LOADER_MESSAGE_PREFIX = '[Scanline] ';

/**
 * `text` as a double-quoted Lua string literal that reads back as exactly `text`. Control
 * characters are written as 3-digit decimal escapes so a following digit cannot extend them.
 */
export function luaStringLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\${String(code).padStart(3, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** The Lua chunk a refused loader call answers with: it prints the reason and does nothing else. */
export function loaderRefusalChunk(message: string): string {
  return `print(${luaStringLiteral(LOADER_MESSAGE_PREFIX + message)})\n`;
}

/**
 * The Lua chunk a refused loader call answers an executor with (status 200, so an executor whose
 * HttpGet raises on a non-2xx status still runs it): it prints the reason, then stops with it.
 */
export function loaderStopChunk(message: string): string {
  const reason = luaStringLiteral(LOADER_MESSAGE_PREFIX + message);
  return `local reason = ${reason}\nprint(reason)\nerror(reason, 0)\n`;
}

/** What the loader tells the script it serves, in its first line (see scanlinePreamble). */
export interface ScanlinePreamble {
  /** The site's origin as the caller reached it, e.g. http://127.0.0.1:5000. */
  site: string;
  /** The number of the script key the loader checked; null for a FREE script. */
  keyId: number | null;
  autoJoinMaxAgeS: number;
}

/**
 * The ONE line the loader puts before every script it serves (so the script's line numbers shift by
 * exactly one): `local SCANLINE = { site = "...", keyId = N, autoJoinMaxAgeS = N }`. Never the key
 * or the device id: a served script is copied and dumped, and those two would load it anywhere. The
 * key's number is enough to tell which key a copy found in the wild was served to; the script gets
 * the key and device from whoever loaded it (the bootstrap hands them over; see lua-bootstrap.ts).
 */
export function scanlinePreamble(p: ScanlinePreamble): string {
  const seconds = Math.max(1, Math.trunc(p.autoJoinMaxAgeS));
  const keyId = p.keyId === null ? '' : ` keyId = ${Math.trunc(p.keyId)},`;
  return `local SCANLINE = { site = ${luaStringLiteral(p.site)},${keyId} autoJoinMaxAgeS = ${seconds} }\n`;
}

const REFUSAL_CODES: [string, string][] = [
  [ACCESS_TEXTS.keyRequired, 'key-required'],
  [ACCESS_TEXTS.unknownKey, 'key-unknown'],
  [ACCESS_TEXTS.inactiveKey, 'key-disabled'],
  [ACCESS_TEXTS.expiredKey, 'key-expired'],
  [ACCESS_TEXTS.freeKey, 'key-free'],
  [ACCESS_TEXTS.revokedDevice, 'device-revoked'],
  [ACCESS_TEXTS.badSignature, 'bad-signature'],
  [ACCESS_TEXTS.nonceRefused, 'challenge-refused'],
];

/** A short, stable name for a refusal, for the X-Scanline-Refusal header (`403 key-disabled`). */
export function refusalCode(status: number, message: string): string {
  for (const [text, code] of REFUSAL_CODES) if (message === text) return code;
  // The loader's answer adds where to reset the devices after it (deviceLimitWithReset).
  if (message.includes('the device limit is reached')) return 'device-limit';
  if (message.startsWith(ACCESS_TEXTS.removedDevice)) return 'device-removed';
  // A key switched off automatically: the stored reason follows (inactiveKeyText).
  if (message.startsWith(ACCESS_TEXTS.inactiveKeyBecause(''))) return 'key-disabled';
  if (message.startsWith('Script not found')) return 'script-not-found';
  if (message.startsWith('Bad loader request')) return 'bad-request';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'unavailable';
  return 'refused';
}
