/**
 * Fetching one web page for an agent, guarded against server-side request forgery: only http(s),
 * and every address the host name resolves to — checked at connect time through the socket's
 * `lookup`, so a re-resolving name cannot slip past — must be public. Loopback is refused unless
 * `allowLoopback` (tests); private, link-local, CGNAT, multicast and reserved ranges always are.
 * Redirects are followed (at most 3), each hop checked again. At most `maxBytes` are read; HTML is
 * reduced to its text.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  allowLoopback: boolean;
}

export interface FetchedPage {
  url: string;
  content_type: string;
  content: string;
  /** True when the page was longer than the bytes read (or the characters kept). */
  truncated: boolean;
  bytes: number;
}

/** Why a fetch was refused or failed; `status` is the HTTP status to answer with. */
export class PageFetchError extends Error {
  constructor(
    readonly status: 422 | 502,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PageFetchError';
  }
}

const MAX_REDIRECTS = 3;

function blocked(allowLoopback: boolean): BlockList {
  const list = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(net, bits, 'ipv4');
  list.addAddress('::', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  list.addSubnet('ff00::', 8, 'ipv6');
  if (!allowLoopback) {
    list.addSubnet('127.0.0.0', 8, 'ipv4');
    list.addAddress('::1', 'ipv6');
  }
  return list;
}

/** True when `ip` is one no research fetch may reach. */
export function isForbiddenAddress(ip: string, allowLoopback: boolean): boolean {
  const mapped = ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(mapped);
  if (family === 0) return true;
  return blocked(allowLoopback).check(mapped, family === 6 ? 'ipv6' : 'ipv4');
}

const refused = (message: string) => new PageFetchError(422, 'research_url_refused', message);

/** The URL if it may be fetched at all (scheme, literal address); else a 422. */
export function checkedUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('the url is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('only http and https URLs are fetched');
  if (url.username || url.password) throw refused('URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isForbiddenAddress(host, allowLoopback)) {
    throw refused(`the address ${host} is private, loopback or reserved`);
  }
  if (!allowLoopback && host.toLowerCase() === 'localhost') throw refused('localhost is not fetched');
  return url;
}

/** A `lookup` for the socket that refuses forbidden addresses after resolving. */
export function guardedLookup(allowLoopback: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const bad = addresses.find((a) => isForbiddenAddress(a.address, allowLoopback));
      if (bad)
        return callback(refused(`${hostname} resolves to ${bad.address}, a private or reserved address`), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '');
      callback(null, first.address, first.family);
    });
  };
}

function get(url: URL, limits: FetchLimits): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'text/html, text/plain;q=0.9, */*;q=0.5', 'user-agent': 'Gaffer-Research/1' },
        lookup: guardedLookup(limits.allowLoopback) as never,
        timeout: limits.timeoutMs,
      },
      resolve,
    );
    req.on('timeout', () =>
      req.destroy(new PageFetchError(502, 'research_fetch_failed', 'the page timed out')),
    );
    req.on('error', reject);
    req.end();
  });
}

async function readAtMost(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  response.destroy();
  return { body: Buffer.concat(chunks), truncated };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The readable text of an HTML document: no scripts, styles or tags; entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/(p|div|li|h[1-6]|tr|br|section|article)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|ld\+json)|image\/svg\+xml)/i;

/** Fetches `raw` within the limits; `maxChars` clamps the extracted text further. */
export async function fetchPage(raw: string, limits: FetchLimits, maxChars: number): Promise<FetchedPage> {
  let url = checkedUrl(raw, limits.allowLoopback);
  for (let hop = 0; ; hop++) {
    let response: IncomingMessage;
    try {
      response = await get(url, limits);
    } catch (error) {
      if (error instanceof PageFetchError) throw error;
      throw new PageFetchError(
        502,
        'research_fetch_failed',
        `the page could not be fetched (${(error as Error).name})`,
      );
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= MAX_REDIRECTS) throw new PageFetchError(502, 'research_fetch_failed', 'too many redirects');
      url = checkedUrl(new URL(location, url).toString(), limits.allowLoopback);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new PageFetchError(502, 'research_fetch_failed', `the page answered HTTP ${status}`);
    }
    const contentType = String(response.headers['content-type'] ?? 'text/plain');
    if (!TEXTUAL.test(contentType)) {
      response.destroy();
      throw new PageFetchError(
        422,
        'research_unsupported_content',
        `pages of type ${contentType} are not fetched`,
      );
    }
    const { body, truncated } = await readAtMost(response, limits.maxBytes);
    const decoded = body.toString('utf8');
    const text = /html/i.test(contentType) ? htmlToText(decoded) : decoded;
    const content = text.slice(0, maxChars);
    return {
      url: url.toString(),
      content_type: contentType,
      content,
      truncated: truncated || content.length < text.length,
      bytes: body.length,
    };
  }
}
