import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Which addresses a request to a URL someone typed may reach: public unicast only. The ranges are
 * ipaddr.js's (IANA's special-purpose registries, kept up to date there, not here); an IPv6 address
 * that carries an IPv4 address inside is judged by that IPv4 address, since that is where the
 * packets end up.
 */

/** ipaddr.js's name for an address in no special-purpose range. */
const PUBLIC_UNICAST = 'unicast';

/** a.b.c.d from two 16-bit IPv6 groups. */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/**
 * The IPv4 address inside an IPv6 one, null when there is none, or 'refused' for a translation
 * prefix that only a local network routes.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | 'refused' {
  const parts = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT)
      return ipv4Of(parts[6]!, parts[7]!);
    case 'rfc6052':
      // 64:ff9b::a.b.c.d is NAT64's well-known prefix; 64:ff9b:1::/48 is for local use (RFC 8215).
      return parts[2] === 0 ? ipv4Of(parts[6]!, parts[7]!) : 'refused';
    case '6to4': // 2002:aabb:ccdd::/48
      return ipv4Of(parts[1]!, parts[2]!);
    case PUBLIC_UNICAST:
      // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291, still routed by some stacks).
      return parts.slice(0, 6).every((part) => part === 0) ? ipv4Of(parts[6]!, parts[7]!) : null;
    default:
      return null;
  }
}

/**
 * Whether an address (IPv4 or IPv6 text, as DNS or a URL gives it) is public unicast: not private,
 * loopback, link-local, unique- or site-local, CGNAT, unspecified, multicast, broadcast, reserved,
 * documentation, benchmarking, Teredo, nor an IPv6 form of any of those. Anything unparsable is not.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIpv4(parsed as ipaddr.IPv6);
    if (inner === 'refused') return false;
    if (inner) parsed = inner;
  }
  return parsed.range() === PUBLIC_UNICAST;
}
