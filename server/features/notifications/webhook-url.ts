/** What stands for the hidden part of a destination's URL. */
export const URL_MASK = '••••••';

/** A Discord webhook's path up to its token: `/api[/vN]/webhooks/{id}/`. */
const DISCORD_WEBHOOK_PREFIX = /^(\/api(?:\/v\d+)?\/webhooks\/\d+\/)[^/?#]/;

/**
 * A destination's URL as the API shows it: the scheme, the host and, for a Discord webhook, its
 * id, never its token. Any other URL shows its origin only, since a path or query may hold a secret
 * too (`/hooks/{secret}`, `?token=`). Credentials in the URL are never shown.
 */
export function maskWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return URL_MASK;
  }
  const origin = `${url.protocol}//${url.host}`;
  const webhook = DISCORD_WEBHOOK_PREFIX.exec(url.pathname);
  if (webhook) return `${origin}${webhook[1]}${URL_MASK}`;
  if (url.pathname === '/' && url.search === '' && url.hash === '') return `${origin}/`;
  return `${origin}/${URL_MASK}`;
}

/** The host a URL points to, for audit rows and logs (which never hold the URL itself). */
export function hostOfUrl(raw: string): string | null {
  return URL.canParse(raw) ? new URL(raw).host : null;
}
