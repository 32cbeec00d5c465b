/**
 * "Internal" callers: loopback, or a network listed in GAFFER_INTERNAL_NETWORKS. The address judged
 * is Fastify's `request.ip`, which follows X-Forwarded-For only through GAFFER_TRUSTED_PROXIES.
 * A relayed request (one carrying X-Forwarded-For or Forwarded) is never internal: the mesh calls the
 * backend port directly, so a forwarded address, LAN or not, never rides the internal whitelist.
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

export function internalNetworkList(cidrs: readonly string[]): BlockList {
  return addressList(['127.0.0.0/8', '::1', ...cidrs]);
}

/** Addresses and CIDR blocks (`10.0.0.0/8`, `::1`) as a BlockList. */
function addressList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/**
 * Fastify's `trustProxy` for GAFFER_TRUSTED_PROXIES: whether a peer's X-Forwarded-For is believed.
 * Given the list itself, Fastify parses every address on every `request.ip`; the peers of a server
 * are few, so each address is judged once (the memo is bounded: forwarded entries are the client's).
 */
export function trustedProxies(cidrs: readonly string[]): (address: string) => boolean {
  const list = addressList(cidrs);
  const judged = new Map<string, boolean>();
  return (address) => {
    let trusted = judged.get(address);
    if (trusted === undefined) {
      trusted = listed(list, address);
      if (judged.size >= 4096) judged.clear();
      judged.set(address, trusted);
    }
    return trusted;
  };
}

export function isInternalAddress(list: BlockList, ip: string): boolean {
  return listed(list, ip);
}

/** Whether `ip` (an IPv4-mapped IPv6 address judged as IPv4) is in `list`; false for a non-address. */
function listed(list: BlockList, ip: string): boolean {
  const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = isIP(mapped);
  if (family === 0) return false;
  return list.check(mapped, family === 6 ? 'ipv6' : 'ipv4');
}

export function isInternalRequest(list: BlockList, request: FastifyRequest): boolean {
  if (isRelayed(request)) return false;
  return isInternalAddress(list, request.ip);
}

/** True when a proxy (trusted or not) says it relayed the request for someone else. */
export function isRelayed(request: FastifyRequest): boolean {
  return request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
}
