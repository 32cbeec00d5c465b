/**
 * "Internal" callers: loopback, or a network listed in GAFFER_INTERNAL_NETWORKS. The address judged
 * is Fastify's `request.ip`, which follows X-Forwarded-For only through GAFFER_TRUSTED_PROXIES.
 * A relayed request (one carrying X-Forwarded-For or Forwarded) is never internal: the mesh calls the
 * backend port directly, so a forwarded address, LAN or not, never rides the internal whitelist.
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

export function internalNetworkList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  for (const entry of cidrs) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

export function isInternalAddress(list: BlockList, ip: string): boolean {
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
