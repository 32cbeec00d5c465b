/**
 * The network of one sandboxed run. The sandbox has a network namespace of its own (its loopback is
 * its own; nothing of the host's, of private ranges or of the internet is routable from it), and
 * Gaffer opens exactly two doors for the run, as unix sockets in a directory bound into it:
 * - the gateway door (gateway-door.ts), when the run is an agent's: `/api/v1/**` as that agent;
 * - the egress proxy (egress-proxy.ts): HTTP(S) to the run's allowlist, every refusal reported.
 * The relay (sandbox-relay.ts) serves them on the sandbox's loopback, and the run's environment
 * points the programs at them: GAFFER_GATEWAY_URL, HTTP(S)_PROXY. A loopback address the list
 * allows with a port (a local model server) is served at that same port, through the proxy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressProxy, type EgressRefusal, type Resolver } from './egress-proxy.js';
import { createGatewayDoor } from './gateway-door.js';
import {
  type AllowEntry,
  forbiddenAddressClass,
  isLoopbackName,
  normalHost,
  parseAllowEntry,
} from './network-allow.js';
import { type RelayListener, relayArgv } from './sandbox-relay.js';

export interface RunNetworkOptions {
  /** An agent's run: its gateway URL and the identity headers the door sends. Absent: no door. */
  gateway?: { url: string; identity: Readonly<Record<string, string>> };
  /** Where the run's HTTP(S) may go: allowlist entries (network-allow.ts), already checked. */
  allow: readonly string[];
  /** Told of every destination refused. */
  onRefusal(refusal: EgressRefusal): void;
  /** Name resolution for the proxy (the system's; tests hand in their own). */
  resolve?: Resolver;
  /** The Node.js that runs the relay inside (this one). */
  node?: string;
}

export interface RunNetwork {
  /** The doors' directory: bind it into the sandbox (read-only is enough to connect). */
  readonly dir: string;
  /** What the run's environment gets: the proxy variables, and the gateway URL inside. */
  readonly env: Readonly<Record<string, string>>;
  /** `argv` behind the relay that serves the doors inside the sandbox. */
  wrap(argv: readonly string[]): string[];
  /** The relay serves a port below 1024 (a model server on port 80): the sandbox must let it bind one. */
  readonly lowPorts: boolean;
  /** Closes the doors (cutting what is still open through them) and removes their directory. */
  close(): Promise<void>;
}

/** The egress proxy's port inside, unless a port the run needs is already that one. */
const PROXY_PORT = 3128;

const listening = (server: Server, path: string) =>
  new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      done();
    });
  });

/** The port a URL's connections go to. */
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Loopback `host:port` entries: served inside at their port (a client there need not use the proxy). */
function loopbackTargets(allow: readonly AllowEntry[]): { host: string; port: number }[] {
  return allow.flatMap((entry) => {
    if (entry.port === null || entry.wildcard) return [];
    const loopback =
      isLoopbackName(entry.host) || forbiddenAddressClass(entry.host, new Set()) === 'a loopback address';
    return loopback ? [{ host: normalHost(entry.host), port: entry.port }] : [];
  });
}

export async function openRunNetwork(options: RunNetworkOptions): Promise<RunNetwork> {
  const dir = await mkdtemp(join(tmpdir(), 'gaffer-net-'));
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closers.map((closeOne) => closeOne()));
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    const listeners: RelayListener[] = [];
    const env: Record<string, string> = {};
    const taken = new Set<number>();
    if (options.gateway) {
      const url = new URL(options.gateway.url);
      const door = createGatewayDoor({ gatewayUrl: options.gateway.url, identity: options.gateway.identity });
      closers.push(door.close);
      const socket = join(dir, 'gateway.sock');
      await listening(door.server, socket);
      const port = portOf(url);
      listeners.push({ port, socket });
      taken.add(port);
      env.GAFFER_GATEWAY_URL = `http://127.0.0.1:${port}`;
    }
    const allow = [...new Set(options.allow)].map(parseAllowEntry);
    const proxy = createEgressProxy({
      allow,
      onRefusal: options.onRefusal,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    closers.push(proxy.close);
    const egress = join(dir, 'egress.sock');
    await listening(proxy.server, egress);
    for (const target of loopbackTargets(allow)) {
      if (taken.has(target.port)) continue;
      const authority = target.host.includes(':')
        ? `[${target.host}]:${target.port}`
        : `${target.host}:${target.port}`;
      listeners.push({ port: target.port, socket: egress, connect: authority });
      taken.add(target.port);
    }
    let proxyPort = PROXY_PORT;
    while (taken.has(proxyPort)) proxyPort += 1;
    listeners.push({ port: proxyPort, socket: egress });
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    Object.assign(env, {
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      http_proxy: proxyUrl,
      https_proxy: proxyUrl,
      // Loopback is the relay's: the gateway and local model servers are reached there directly.
      NO_PROXY: 'localhost,127.0.0.1,::1',
      no_proxy: 'localhost,127.0.0.1,::1',
      // Node.js 24 honours the proxy variables in fetch and http only when asked to.
      NODE_USE_ENV_PROXY: '1',
    });
    const node = options.node ?? process.execPath;
    const lowPorts = listeners.some((listener) => listener.port < 1024);
    return { dir, env, lowPorts, wrap: (argv) => relayArgv(node, listeners, argv), close };
  } catch (error) {
    await close();
    throw error;
  }
}
