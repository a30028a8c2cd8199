/** Payment wallets: currency code (upper case) -> address. */
export type Wallets = Record<string, string>;

export type AddWalletResult = { ok: true; wallets: Wallets; replaced: boolean } | { ok: false };

/** The currency as stored: trimmed and upper-cased. */
export function normalizeCurrency(currency: string): string {
  return currency.trim().toUpperCase();
}

/**
 * Adds (or replaces) a wallet. Both currency and address are needed after trimming; otherwise
 * nothing changes and the screen says 'Invalid Wallet'.
 */
export function addWallet(wallets: Wallets, currency: string, address: string): AddWalletResult {
  const code = normalizeCurrency(currency);
  const trimmed = address.trim();
  if (!code || !trimmed) return { ok: false };
  return { ok: true, wallets: { ...wallets, [code]: trimmed }, replaced: code in wallets };
}

export function removeWallet(wallets: Wallets, currency: string): Wallets {
  const { [currency]: _removed, ...rest } = wallets;
  return rest;
}

/** Same currencies with the same addresses, whatever the order. */
export function sameWallets(a: Wallets, b: Wallets): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}
