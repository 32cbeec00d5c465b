/**
 * The agents' network allowlist: its grammar, its matching, and the address classes a name that is
 * allowed may still not lead to.
 *
 * An entry is a host name (`registry.npmjs.org`), an address (`203.0.113.7`, `[2001:db8::1]`), or
 * `*.` and a domain (`*.npmjs.org`: every name under the domain, not the domain itself), each
 * optionally with `:port` (`127.0.0.1:11434`). Nothing else: a scheme, a path, a user, a CIDR range
 * or a bare `*` is refused with the reason, so an operator learns at once what was not understood.
 *
 * A name is decided twice: by the list, then on the address it resolves to at connect time. An
 * address that is loopback, private, link-local (169.254.0.0/16: cloud instance metadata),
 * multicast, unspecified, broadcast or one of this host's own is refused unless that address (and
 * port) is itself on the list — so a name whose DNS an attacker controls cannot lead past the fence
 * (DNS rebinding). `localhost` is loopback by definition (RFC 6761): allowing it allows loopback.
 */
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface AllowEntry {
  /** Lowercase host name, domain (for a wildcard) or canonical address without brackets. */
  readonly host: string;
  /** null: any port. */
  readonly port: number | null;
  /** `*.domain`: any name under `host`. */
  readonly wildcard: boolean;
  /** As the operator wrote it (trimmed). */
  readonly text: string;
}

export class AllowEntryError extends Error {
  override readonly name = 'AllowEntryError';
  constructor(
    readonly entry: string,
    readonly why: string,
  ) {
    super(`"${entry}" is not an allowlist entry: ${why}`);
  }
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  // A name that is all digits and dots is a malformed address, not a name.
  if (labels.every((label) => /^\d+$/.test(label))) return false;
  return labels.every((label) => LABEL.test(label));
}

function parsePort(text: string, entry: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new AllowEntryError(entry, `"${text}" is not a port`);
  const port = Number(text);
  if (port < 1 || port > 65_535) throw new AllowEntryError(entry, `port ${port} is outside 1–65535`);
  return port;
}

/** One entry, or AllowEntryError naming what is wrong with it. */
export function parseAllowEntry(raw: string): AllowEntry {
  const text = raw.trim();
  if (text === '') throw new AllowEntryError(raw, 'it is empty');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    throw new AllowEntryError(text, 'write the host (and port) without a scheme');
  if (text.includes('/'))
    throw new AllowEntryError(text, 'paths and CIDR ranges are not supported; name a host or an address');
  if (text.includes('@')) throw new AllowEntryError(text, 'credentials do not belong in an allowlist');
  if (/\s/.test(text)) throw new AllowEntryError(text, 'it contains spaces');
  const lower = text.toLowerCase();

  let host: string;
  let port: number | null = null;
  if (lower.startsWith('[')) {
    const close = lower.indexOf(']');
    if (close < 0) throw new AllowEntryError(text, 'an IPv6 address needs its closing "]"');
    host = lower.slice(1, close);
    const rest = lower.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) throw new AllowEntryError(text, 'expected ":port" after the address');
      port = parsePort(rest.slice(1), text);
    }
    if (isIP(host) !== 6) throw new AllowEntryError(text, `"${host}" is not an IPv6 address`);
    return { host: canonicalAddress(host), port, wildcard: false, text };
  }
  if (isIP(lower) === 6) {
    throw new AllowEntryError(text, 'write an IPv6 address in brackets, e.g. [2001:db8::1]:443');
  }
  const colon = lower.lastIndexOf(':');
  if (colon >= 0) {
    host = lower.slice(0, colon);
    port = parsePort(lower.slice(colon + 1), text);
  } else {
    host = lower;
  }
  if (isIP(host) === 4) return { host: canonicalAddress(host), port, wildcard: false, text };
  if (host === '*' || host === '*.')
    throw new AllowEntryError(text, 'allowing everything is not an allowlist');
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  if (name.includes('*')) throw new AllowEntryError(text, 'a wildcard is only "*." at the start of a name');
  if (!isHostName(name)) throw new AllowEntryError(text, `"${name}" is not a host name or an address`);
  if (wildcard && !name.includes('.'))
    throw new AllowEntryError(text, `"*.${name}" would allow a whole top-level domain`);
  return { host: name, port, wildcard, text };
}

/** Entries from a comma- or newline-separated list; AllowEntryError names the first bad one. */
export function parseAllowList(text: string): AllowEntry[] {
  return text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map(parseAllowEntry);
}

/** The entries of a list that cannot be parsed, each with why; empty when all can. */
export function allowListProblems(entries: readonly string[]): { entry: string; why: string }[] {
  const problems: { entry: string; why: string }[] = [];
  for (const entry of entries) {
    try {
      parseAllowEntry(entry);
    } catch (error) {
      if (!(error instanceof AllowEntryError)) throw error;
      problems.push({ entry: error.entry, why: error.why });
    }
  }
  return problems;
}

/** An address as one spelling (IPv6 compressed and lowercase; an IPv4-mapped IPv6 as its IPv4). */
export function canonicalAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) !== 6) return bare;
  // The URL parser compresses and lowercases an IPv6 address, and writes a mapped IPv4 in hex.
  const compressed = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Host as a URL or a client names it: lowercase, brackets and a trailing dot removed, addresses canonical. */
export function normalHost(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return isIP(bare) ? canonicalAddress(bare) : bare;
}

function entryMatches(entry: AllowEntry, host: string, port: number): boolean {
  if (entry.port !== null && entry.port !== port) return false;
  return entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
}

/** The first entry that allows `host:port` by name (or address), or null. */
export function allowedBy(entries: readonly AllowEntry[], host: string, port: number): AllowEntry | null {
  const name = normalHost(host);
  return entries.find((entry) => entryMatches(entry, name, port)) ?? null;
}

/** The loopback names that mean loopback whatever a resolver says (RFC 6761). */
export const isLoopbackName = (host: string): boolean => {
  const name = normalHost(host);
  return name === 'localhost' || name.endsWith('.localhost');
};

const CLASSES: readonly (readonly [string, readonly [string, number, 'ipv4' | 'ipv6'][]])[] = [
  [
    'a loopback address',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'an unspecified address',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'a link-local address',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'a private address',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  ],
  [
    'a multicast address',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
  ['the broadcast address', [['255.255.255.255', 32, 'ipv4']]],
];

const BLOCKS = CLASSES.map(([why, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return [why, list] as const;
});

/** This host's own unicast addresses (a service bound to 0.0.0.0 answers on each as on loopback). */
export function hostAddresses(): Set<string> {
  const own = new Set<string>();
  for (const infos of Object.values(networkInterfaces())) {
    for (const info of infos ?? []) own.add(canonicalAddress(info.address.split('%')[0] ?? info.address));
  }
  return own;
}

/**
 * Why `address` may not be reached by a name that is allowed (a class from the file comment), or
 * null for an ordinary public address.
 */
export function forbiddenAddressClass(
  address: string,
  own: ReadonlySet<string> = hostAddresses(),
): string | null {
  const canonical = canonicalAddress(address);
  const family = isIP(canonical) === 6 ? 'ipv6' : 'ipv4';
  for (const [why, list] of BLOCKS) if (list.check(canonical, family)) return why;
  if (own.has(canonical)) return "one of this host's addresses";
  return null;
}
