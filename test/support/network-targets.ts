/**
 * What the network half of the attack hunt (test/fixtures/network-hunt.mjs) aims at, from inside a
 * run: PostgreSQL and Redis on 127.0.0.1 (the machine's own when they run, stand-ins on loopback
 * that answer like them otherwise), a loopback service on another port, a name nothing allows, and
 * an allowed name (`allow`, for GAFFER_AGENT_NETWORK_ALLOW) that resolves to this host — which the
 * egress proxy must still refuse.
 */
import { connect, createServer, type Server } from 'node:net';
import { hostname } from 'node:os';

export interface NetworkTargets {
  postgresPort: number;
  redisPort: number;
  loopbackPort: number;
  notAllowed: string;
  rebound: string;
}

/** A loopback port whose service answers `greeting` to anything. */
async function standIn(greeting: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.once('data', () => socket.end(greeting)));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as { port: number }).port };
}

/** Whether something listens on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => done(Boolean(socket.destroy())));
    socket.once('error', () => done(false));
  });

export async function networkTargets(): Promise<{
  targets: NetworkTargets;
  /** The allowlist entry of the rebound name. */
  allow: string;
  close(): void;
}> {
  const servers: Server[] = [];
  const serviceOn = async (port: number, greeting: string) => {
    if (await listening(port)) return port;
    const stand = await standIn(greeting);
    servers.push(stand.server);
    return stand.port;
  };
  const loopback = await standIn('loopback service\n');
  servers.push(loopback.server);
  const targets: NetworkTargets = {
    postgresPort: await serviceOn(5432, 'N'),
    redisPort: await serviceOn(6379, '+PONG\r\n'),
    loopbackPort: loopback.port,
    notAllowed: 'not-allowed.example',
    rebound: hostname(),
  };
  return {
    targets,
    allow: `${targets.rebound}:${targets.loopbackPort}`,
    close: () => {
      for (const server of servers) server.close();
    },
  };
}

/** The refusals the egress proxy must have recorded for the hunt, as `host:port — reason` lines. */
export function expectedRefusals(targets: NetworkTargets): (string | RegExp)[] {
  return [
    `${targets.notAllowed}:80 — not on the allowlist`,
    `${targets.notAllowed}:443 — not on the allowlist`,
    `127.0.0.1:${targets.postgresPort} — not on the allowlist`,
    new RegExp(
      `^${targets.rebound.replaceAll('.', '\\.')}:${targets.loopbackPort} — resolves to \\S+, (a loopback address|one of this host's addresses)$`,
    ),
  ];
}
