import type { InteractionMessage } from './interaction.schema.ts';

/** An interaction's token lasts 15 minutes; a follow-up that cannot get through in this long is dropped. */
const FOLLOWUP_TIMEOUT_MS = 10_000;

/**
 * Sends the answer to a deferred interaction: `POST {apiUrl}/webhooks/{applicationId}/{token}`. The
 * interaction's token authorizes it (no bot token). Minimal on purpose: it moves onto the shared
 * Discord REST client (rate limits, retries) once that exists. Throws on a refusal, naming the status.
 */
export async function sendInteractionFollowup(
  apiUrl: string,
  applicationId: string,
  token: string,
  message: InteractionMessage,
): Promise<void> {
  const url = `${apiUrl}/webhooks/${encodeURIComponent(applicationId)}/${encodeURIComponent(token)}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
    redirect: 'error',
    signal: AbortSignal.timeout(FOLLOWUP_TIMEOUT_MS),
  });
  if (!response.ok) {
    const text = (await response.text()).slice(0, 200);
    throw new Error(`Discord refused the follow-up: HTTP ${response.status} ${text}`);
  }
}
