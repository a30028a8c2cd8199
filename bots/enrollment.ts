import type { BotCredentials } from './credentials.ts';

/*
 * How a simulated bot gets its own credential, as a real one would (docs/rules-fleet.md, "Bot
 * credentials"): POST /api/bot/enroll {ghostId} with its stored botToken when it has one (the server
 * replaces it), else with the shared bot token (the enrollment secret).
 */

export type Enrollment = { ok: true; botToken: string } | { ok: false; error: string };

/** At most this long between two looks at `stopping` while a 429 is waited out. */
const STOP_CHECK_MS = 200;

async function waitOut(ms: number, stopping: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!stopping() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(STOP_CHECK_MS, until - Date.now())));
  }
}

function errorText(json: unknown): string {
  if (json && typeof json === 'object' && 'error' in json) return String((json as { error: unknown }).error);
  return '';
}

/**
 * Enrolls `ghostId` on the server at `url`. A stored botToken the server no longer holds (revoked,
 * another database) is dropped for the shared token; a 429 is waited out (Retry-After); a server
 * without enrollment (404) lets the bot speak with the shared token, as before enrollment.
 */
export async function enrollBot(
  url: string,
  sharedToken: string,
  credentials: BotCredentials,
  ghostId: string,
  stopping: () => boolean,
): Promise<Enrollment> {
  const stored = credentials.get(ghostId);
  for (const bearer of stored ? [stored, sharedToken] : [sharedToken]) {
    for (;;) {
      if (stopping()) return { ok: false, error: 'stopped before enrolling' };
      let response: Response;
      let json: unknown = null;
      try {
        response = await fetch(`${url}/api/bot/enroll`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
          body: JSON.stringify({ ghostId }),
        });
        json = await response.json().catch(() => null);
      } catch (error) {
        return { ok: false, error: `enrolling: ${(error as Error).message}` };
      }
      const botToken = (json as { botToken?: unknown } | null)?.botToken;
      if (response.status === 201 && typeof botToken === 'string') {
        credentials.set(ghostId, botToken);
        return { ok: true, botToken };
      }
      if (response.status === 429) {
        const seconds = Number(response.headers.get('retry-after'));
        await waitOut((seconds > 0 ? seconds : 1) * 1000, stopping);
        continue;
      }
      if (response.status === 401 && bearer === stored) break;
      if (response.status === 404 && bearer === sharedToken) return { ok: true, botToken: sharedToken };
      return { ok: false, error: `enrollment refused (${response.status} ${errorText(json)})` };
    }
  }
  return { ok: false, error: 'enrollment refused' };
}
