import { describe, expect, it } from 'vitest';
import {
  AllowEntryError,
  allowedBy,
  allowListProblems,
  canonicalAddress,
  forbiddenAddressClass,
  parseAllowEntry,
  parseAllowList,
} from './network-allow.js';

describe('an allowlist entry', () => {
  it.each([
    ['registry.npmjs.org', { host: 'registry.npmjs.org', port: null, wildcard: false }],
    ['API.Anthropic.com:443', { host: 'api.anthropic.com', port: 443, wildcard: false }],
    ['*.npmjs.org', { host: 'npmjs.org', port: null, wildcard: true }],
    ['*.pkg.dev:8443', { host: 'pkg.dev', port: 8443, wildcard: true }],
    ['127.0.0.1:11434', { host: '127.0.0.1', port: 11434, wildcard: false }],
    ['203.0.113.7', { host: '203.0.113.7', port: null, wildcard: false }],
    ['[2001:DB8::1]:443', { host: '2001:db8::1', port: 443, wildcard: false }],
    ['[::1]', { host: '::1', port: null, wildcard: false }],
    ['localhost:8080', { host: 'localhost', port: 8080, wildcard: false }],
  ])('%s is understood', (text, expected) => {
    expect(parseAllowEntry(text)).toMatchObject(expected);
  });

  it.each([
    ['https://registry.npmjs.org', /without a scheme/],
    ['registry.npmjs.org/simple', /paths and CIDR ranges/],
    ['10.0.0.0/8', /paths and CIDR ranges/],
    ['user:pw@example.com', /credentials/],
    ['*', /allowing everything/],
    ['*.com', /top-level domain/],
    ['foo.*.com', /only "\*\." at the start/],
    ['example.com:0', /outside 1–65535/],
    ['example.com:99999', /outside 1–65535/],
    ['example.com:http', /not a port/],
    ['2001:db8::1', /in brackets/],
    ['[2001:db8::1', /closing/],
    ['exa mple.com', /spaces/],
    ['-bad-.com', /not a host name/],
    ['1.2.3', /not a host name/],
    ['', /empty/],
  ])('%s is refused, saying why', (text, why) => {
    expect(() => parseAllowEntry(text)).toThrow(AllowEntryError);
    expect(() => parseAllowEntry(text)).toThrow(why);
  });

  it('lists every bad entry of a list with its reason', () => {
    expect(allowListProblems(['ok.example', 'https://x.example', '10.0.0.0/8'])).toEqual([
      { entry: 'https://x.example', why: 'write the host (and port) without a scheme' },
      { entry: '10.0.0.0/8', why: 'paths and CIDR ranges are not supported; name a host or an address' },
    ]);
  });
});

describe('matching', () => {
  const list = parseAllowList('registry.npmjs.org, *.pythonhosted.org:443\n127.0.0.1:11434,[::1]:8080');

  it('allows a listed name on any port, a port-bound entry on its port only', () => {
    expect(allowedBy(list, 'registry.npmjs.org', 443)?.text).toBe('registry.npmjs.org');
    expect(allowedBy(list, 'REGISTRY.npmjs.org.', 80)?.text).toBe('registry.npmjs.org');
    expect(allowedBy(list, '127.0.0.1', 11434)?.text).toBe('127.0.0.1:11434');
    expect(allowedBy(list, '127.0.0.1', 5432)).toBeNull();
    expect(allowedBy(list, '[::1]', 8080)?.text).toBe('[::1]:8080');
  });

  it('a wildcard allows the names under its domain, not the domain or a look-alike', () => {
    expect(allowedBy(list, 'files.pythonhosted.org', 443)).not.toBeNull();
    expect(allowedBy(list, 'a.b.pythonhosted.org', 443)).not.toBeNull();
    expect(allowedBy(list, 'pythonhosted.org', 443)).toBeNull();
    expect(allowedBy(list, 'evilpythonhosted.org', 443)).toBeNull();
    expect(allowedBy(list, 'files.pythonhosted.org', 80)).toBeNull();
  });

  it('an address matches however it is spelled', () => {
    expect(allowedBy(parseAllowList('[::1]:8080'), '0:0:0:0:0:0:0:1', 8080)).not.toBeNull();
    expect(allowedBy(parseAllowList('127.0.0.1:1'), '::ffff:127.0.0.1', 1)).not.toBeNull();
  });
});

describe('addresses a name may not lead to', () => {
  const own = new Set(['198.51.100.20']);
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['10.1.2.3', 'a private address'],
    ['172.20.0.5', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.100.100.200', 'a private address'],
    ['fd00:ec2::254', 'a private address'],
    ['224.0.0.251', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['198.51.100.20', "one of this host's addresses"],
  ])('%s is %s', (address, why) => {
    expect(forbiddenAddressClass(address, own)).toBe(why);
  });

  it('an ordinary public address is none of them', () => {
    expect(forbiddenAddressClass('93.184.216.34', own)).toBeNull();
    expect(forbiddenAddressClass('2606:4700::1111', own)).toBeNull();
    expect(forbiddenAddressClass('172.32.0.1', own)).toBeNull();
  });

  it('canonical spellings', () => {
    expect(canonicalAddress('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(canonicalAddress('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(canonicalAddress('2001:DB8:0:0::1')).toBe('2001:db8::1');
  });
});
