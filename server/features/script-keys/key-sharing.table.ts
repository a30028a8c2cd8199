/** Where a script key was used from: one row per key and address, pruned once out of the window. */
export interface ScriptKeyAddressesTable {
  script_key_id: number;
  /** An IPv4 address, or an IPv6 address's /64 (see key-sharing-address.ts). */
  address: string;
  /** The address's /24 (IPv4) or /48 (IPv6). */
  network: string;
  first_seen: number;
  last_seen: number;
}
