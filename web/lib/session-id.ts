const STORAGE_KEY = 'scanline.serverId';
/** Game clients put their server id in the user agent, e.g. "Roblox/WinInet 12345". */
const GAME_CLIENT_PATTERN = /Roblox\/\S*\s*(\d+)/i;

/** Header carrying the per-session server identifier on default data fetches. */
export const SERVER_ID_HEADER = 'X-Server-Id';

/**
 * The per-session server identifier: the digits after a game-client user-agent pattern when
 * present, otherwise a random string generated once per browser session.
 */
export function getServerId(): string {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (stored) return stored;
  const fromAgent = GAME_CLIENT_PATTERN.exec(navigator.userAgent)?.[1];
  const id = fromAgent ?? `web-${crypto.randomUUID().slice(0, 12)}`;
  sessionStorage.setItem(STORAGE_KEY, id);
  return id;
}
