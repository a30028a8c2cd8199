import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A client as per-IP limits count it: an IPv4 address as it is, an IPv6 address as its /64 (the
 * block one subscriber usually holds, so rotating addresses inside it does not reset a count), an
 * IPv4-mapped IPv6 address as its IPv4 address. IPv4 goes through untouched: the loader's rate
 * limit calls this on every request.
 */
export function limitedClient(ip: string): string {
  return ip.includes(':') ? normalizeIP(ip) : ip;
}

/** The client a request's per-IP limits count (limitedClient); `ip` is missing under inject for sockets. */
export function limitedClientOf(request: FastifyRequest): string {
  const ip: string | undefined = request.ip;
  return ip === undefined ? 'inject' : limitedClient(ip);
}
