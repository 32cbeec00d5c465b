/**
 * The egress proxy of one sandboxed run: the only way its HTTP(S) leaves the sandbox's network. It
 * listens on a unix socket bound into the sandbox (the relay inside turns it into
 * `HTTPS_PROXY=http://127.0.0.1:<port>`), and speaks plain HTTP proxying — CONNECT for TLS, absolute
 * URLs for plain HTTP — to the destinations its allowlist names, and to nothing else.
 *
 * Each destination is decided twice (network-allow.ts): its name against the list, then the
 * address the name resolves to, which is the address dialled (no second lookup for a rebinding
 * resolver to answer differently). A refusal answers 403 with the reason in words, and is reported
 * to the run (`onRefusal`) so the run's record and the operator see it.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type Door, doorOf } from './door-server.js';
import {
  type AllowEntry,
  allowedBy,
  forbiddenAddressClass,
  hostAddresses,
  isLoopbackName,
  normalHost,
} from './network-allow.js';

export interface EgressRefusal {
  host: string;
  port: number;
  /** In words: "not on the allowlist", "resolves to 10.0.0.5, a private address", … */
  reason: string;
  /** A stable class for counting: `not_allowed`, `forbidden_address`, `unresolvable`. */
  kind: 'not_allowed' | 'forbidden_address' | 'unresolvable';
}

export type EgressDecision = { ok: true; address: string } | ({ ok: false } & EgressRefusal);

export type Resolver = (host: string) => Promise<readonly { address: string }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface EgressPolicy {
  allow: readonly AllowEntry[];
  /** How names are resolved (the system's resolver; tests hand in their own). */
  resolve?: Resolver;
  /** This host's own addresses (read from its interfaces when not given). */
  own?: ReadonlySet<string>;
}

/** Whether `host:port` may be reached under `policy`, and at which address. */
export async function decideEgress(
  policy: EgressPolicy,
  rawHost: string,
  port: number,
): Promise<EgressDecision> {
  const host = normalHost(rawHost);
  const refuse = (kind: EgressRefusal['kind'], reason: string): EgressDecision => ({
    ok: false,
    host,
    port,
    kind,
    reason,
  });
  if (!allowedBy(policy.allow, host, port)) return refuse('not_allowed', 'not on the allowlist');
  // An address the list names is the operator's explicit choice: dialled as it is.
  if (isIP(host)) return { ok: true, address: host };
  let addresses: readonly { address: string }[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(host);
  } catch (error) {
    return refuse(
      'unresolvable',
      `does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`,
    );
  }
  const own = policy.own ?? hostAddresses();
  let first: { address: string; why: string } | null = null;
  for (const { address } of addresses) {
    const why = forbiddenAddressClass(address, own);
    const loopbackByName = why === 'a loopback address' && isLoopbackName(host);
    if (why === null || loopbackByName || allowedBy(policy.allow, address, port))
      return { ok: true, address };
    first ??= { address, why };
  }
  if (!first) return refuse('unresolvable', 'does not resolve (no address)');
  return refuse('forbidden_address', `resolves to ${first.address}, ${first.why}`);
}

/** `host:port` of a CONNECT request target (`[v6]:port` too); null when it is not one. */
export function parseAuthority(target: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(target.trim());
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export interface EgressProxyOptions extends EgressPolicy {
  /** Told of every refusal. */
  onRefusal(refusal: EgressRefusal): void;
}

const refusalText = (refusal: EgressRefusal) =>
  `blocked by Gaffer's agent network fence: ${refusal.host}:${refusal.port} — ${refusal.reason}\n`;

/** An HTTP proxy deciding by `options`. */
export function createEgressProxy(options: EgressProxyOptions): Door {
  const decide = async (host: string, port: number): Promise<EgressDecision> => {
    const decision = await decideEgress(options, host, port);
    if (!decision.ok)
      options.onRefusal({ host: decision.host, port, reason: decision.reason, kind: decision.kind });
    return decision;
  };

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('this is an HTTP proxy: send an absolute URL or CONNECT\n');
      return;
    }
    if (url.protocol !== 'http:') {
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('use CONNECT for anything but plain http\n');
      return;
    }
    const port = Number(url.port || 80);
    const decision = await decide(url.hostname, port);
    if (!decision.ok) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end(refusalText(decision));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())),
    );
    const upstream = httpRequest(
      {
        host: decision.address,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      },
      (answer) => {
        const kept = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())),
        );
        response.writeHead(answer.statusCode ?? 502, kept);
        answer.pipe(response);
      },
    );
    upstream.once('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(
        `could not reach ${url.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}\n`,
      );
    });
    request.pipe(upstream);
  });

  const door = doorOf(server);
  server.on('connect', async (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = parseAuthority(request.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\n\r\nCONNECT needs host:port\n');
      return;
    }
    const decision = await decide(target.host, target.port);
    if (!decision.ok) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refusalText(decision)}`);
      return;
    }
    const upstream: Socket = connect(target.port, decision.address);
    door.keep(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (connected) client.destroy();
      else
        client.end(
          `HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\ncould not reach ${request.url}: ${error.code ?? error.message}\n`,
        );
    });
    client.once('close', () => upstream.destroy());
  });

  return { server: door.server, close: door.close };
}
