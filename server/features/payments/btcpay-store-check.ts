import type { BtcpayConnection } from './payment-settings.service.ts';

/** How long System Configuration waits for BTCPay Server before it says the connection does not answer. */
export const STORE_CHECK_TIMEOUT_MS = 10_000;

/** What reading the store told: whether BTCPay Server answered for it, its name, or why not in words. */
export interface BtcpayStoreCheck {
  reachable: boolean;
  storeName: string | null;
  error: string | null;
}

/** Why a Greenfield answer refused the store, in words an operator can act on. */
function refusal(status: number, storeId: string): string {
  switch (status) {
    case 401:
      return 'BTCPay Server refused the API key (401): check the key in your account’s API keys';
    case 403:
      return 'The API key lacks a permission for this store (403): give it btcpay.store.canviewstoresettings, btcpay.store.cancreateinvoice and btcpay.store.canviewinvoices';
    case 404:
      return `BTCPay Server has no store ${storeId} (404): check the store ID in the store's settings`;
    default:
      return `BTCPay Server answered ${status} when asked for the store`;
  }
}

/**
 * Reads the store (`GET {url}/api/v1/stores/{storeId}` with `Authorization: token …`), waiting at
 * most 10 s. Follows no redirect: a Greenfield API answers in place, so one means a wrong URL. The
 * key goes only into the request's header; no answer or error here carries it.
 */
export async function checkBtcpayStore(
  connection: Pick<BtcpayConnection, 'url' | 'storeId' | 'apiKey'>,
  timeoutMs = STORE_CHECK_TIMEOUT_MS,
): Promise<BtcpayStoreCheck> {
  const url = `${connection.url}/api/v1/stores/${encodeURIComponent(connection.storeId)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `token ${connection.apiKey}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return {
      reachable: false,
      storeName: null,
      error: timedOut
        ? `BTCPay Server did not answer within ${timeoutMs / 1000} s`
        : `BTCPay Server could not be reached at ${connection.url}`,
    };
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return {
      reachable: false,
      storeName: null,
      error: `${connection.url} redirects (${response.status}): enter the BTCPay Server's own address`,
    };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { reachable: false, storeName: null, error: refusal(response.status, connection.storeId) };
  }
  const store = (await response.json().catch(() => null)) as { name?: unknown } | null;
  if (!store || typeof store !== 'object') {
    return {
      reachable: false,
      storeName: null,
      error: `${connection.url} answered, but not as a BTCPay Server (no store in the answer)`,
    };
  }
  return { reachable: true, storeName: typeof store.name === 'string' ? store.name : null, error: null };
}
