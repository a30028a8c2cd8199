import ipaddr from 'ipaddr.js';

/**
 * The network a client address stands for when counting "per address": an IPv4 address as itself
 * (an IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address as its /64, since one
 * subscriber is usually handed a whole /64 and can pick any address in it. Anything that is no IP
 * address (`inject` in tests) is returned as it is.
 */
export function clientNetworkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}
