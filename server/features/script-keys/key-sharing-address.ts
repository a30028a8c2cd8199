import ipaddr from 'ipaddr.js';

/** Where a call came from, as key sharing counts it. */
export interface SharingAddress {
  /** An IPv4 address, or an IPv6 address's /64 (e.g. `2001:db8:1:2::/64`). */
  address: string;
  /** The /24 of an IPv4 address (`203.0.113.0/24`), the /48 of an IPv6 one. */
  network: string;
}

/**
 * The address and network a caller is counted by. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * what a dual-stack socket reports) is its IPv4 address. IPv6 is counted by its /64, not the whole
 * address: a device's privacy addresses change within its /64 every day, and one buyer would
 * otherwise look like many; a /48 is what a site is usually given. Text that is no address (never
 * expected: Fastify reports the socket's or the trusted proxy's) counts as itself.
 */
export function sharingAddressOf(ip: string): SharingAddress {
  if (!ipaddr.isValid(ip)) return { address: ip, network: ip };
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') {
    return { address: parsed.toString(), network: prefixOf('ipv4', parsed.toString(), 24) };
  }
  // A zone (fe80::1%eth0) names the server's own interface, not the caller.
  const bare = parsed.toString().split('%', 1)[0] ?? '';
  return { address: prefixOf('ipv6', bare, 64), network: prefixOf('ipv6', bare, 48) };
}

function prefixOf(kind: 'ipv4' | 'ipv6', address: string, bits: number): string {
  const cidr = `${address}/${bits}`;
  const network =
    kind === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${bits}`;
}
