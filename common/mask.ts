/**
 * Shows `lead` leading and `trail` trailing characters with stars between.
 * Values no longer than lead + trail are shown whole (nothing would be hidden).
 */
export function maskSecret(value: string, lead: number, trail: number): string {
  if (value.length <= lead + trail) return value;
  return `${value.slice(0, lead)}${'*'.repeat(Math.min(12, value.length - lead - trail))}${value.slice(-trail)}`;
}

/** License and script keys: 8 leading, 4 trailing. */
export const maskLicenseKey = (key: string) => maskSecret(key, 8, 4);

/** A licence key as the bindings table and the audit log show it: first 8 characters, an ellipsis, last 4. */
export function shortLicenseKey(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 8)}...${key.slice(-4)}`;
}

/** Wallet addresses: first 8 and last 8 characters. */
export function shortenWallet(address: string): string {
  return address.length <= 16 ? address : `${address.slice(0, 8)}...${address.slice(-8)}`;
}
