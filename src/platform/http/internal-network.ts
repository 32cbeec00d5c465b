/**
 * "Internal" callers: loopback, or a network listed in GAFFER_INTERNAL_NETWORKS. The address judged
 * is Fastify's `request.ip`, which follows X-Forwarded-For only through GAFFER_TRUSTED_PROXIES.
 * A relayed request (one carrying X-Forwarded-For or Forwarded) is never internal: the mesh calls the
 * backend port directly, so a forwarded address, LAN or not, never rides the internal whitelist.
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Whether an address (an IPv4-mapped IPv6 one judged as IPv4) is in a list; false for a non-address. */
export type AddressCheck = (ip: string) => boolean;

/** Loopback and GAFFER_INTERNAL_NETWORKS. */
export function internalNetworks(cidrs: readonly string[]): AddressCheck {
  return addressCheck(['127.0.0.0/8', '::1', ...cidrs]);
}

/** Fastify's `trustProxy` for GAFFER_TRUSTED_PROXIES: the peers whose X-Forwarded-For is believed. */
export function trustedProxies(cidrs: readonly string[]): AddressCheck {
  return addressCheck(cidrs);
}

export function isInternalRequest(isInternal: AddressCheck, request: FastifyRequest): boolean {
  return !isRelayed(request) && isInternal(request.ip);
}

/** True when a proxy (trusted or not) says it relayed the request for someone else. */
export function isRelayed(request: FastifyRequest): boolean {
  return request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
}

/**
 * A check against addresses and CIDR blocks (`10.0.0.0/8`, `::1`). A BlockList builds a socket
 * address object per check, and Fastify (given the list itself) re-parses it on every `request.ip`;
 * the peers of a server are few, so each address is judged once. The memo is bounded: forwarded
 * entries are whatever the client wrote.
 */
function addressCheck(cidrs: readonly string[]): AddressCheck {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  const judged = new Map<string, boolean>();
  return (ip) => {
    let listed = judged.get(ip);
    if (listed === undefined) {
      const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
      const family = isIP(mapped);
      listed = family !== 0 && list.check(mapped, family === 6 ? 'ipv6' : 'ipv4');
      if (judged.size >= 4096) judged.clear();
      judged.set(ip, listed);
    }
    return listed;
  };
}
