/**
 * The relay that runs first inside a sandbox with a network of its own. The sandbox's loopback is
 * its own, so the doors Gaffer opens for the run (unix sockets bound into the sandbox) are served
 * there as TCP ports a program can use: the gateway door as `GAFFER_GATEWAY_URL`, the egress proxy
 * as `HTTPS_PROXY`, and each loopback address the run may reach (a local model server) at its own
 * port, through the egress proxy (a CONNECT per connection, so the proxy decides and records).
 * Once every port listens, the relay starts the program and ends as it ends.
 *
 * It is a few lines of Node.js run with `node -e` (Node is what the sandbox runs Gaffer's tool
 * server with anyway), so it needs no file of its own in the sandbox and no other program.
 * It prints nothing on stdout: that is the program's.
 */

/** One port inside the sandbox and where its connections go. */
export interface RelayListener {
  /** The port on the sandbox's loopback (IPv4 and IPv6). */
  port: number;
  /** The door's unix socket (bound into the sandbox). */
  socket: string;
  /** Ask the door (the egress proxy) to CONNECT here first; absent: a plain pipe (the gateway door). */
  connect?: string;
}

const RELAY_SOURCE = String.raw`'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const plan = JSON.parse(process.argv[1]);
const argv = process.argv.slice(2);
const fail = (message, code) => {
  process.stderr.write('gaffer sandbox relay: ' + message + '\n');
  process.exit(code);
};
function pipeBoth(a, b) {
  a.pipe(b);
  b.pipe(a);
}
function relay(client, listener) {
  const door = net.connect(listener.socket);
  client.on('error', () => door.destroy());
  door.on('error', () => client.destroy());
  client.on('close', () => door.destroy());
  door.on('close', () => client.destroy());
  if (!listener.connect) return pipeBoth(client, door);
  client.pause();
  door.write('CONNECT ' + listener.connect + ' HTTP/1.1\r\nhost: ' + listener.connect + '\r\n\r\n');
  let head = Buffer.alloc(0);
  const answer = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return head.length > 16384 && door.destroy();
    door.off('data', answer);
    if (!/^HTTP\/1\.[01] 200/.test(head.toString('latin1', 0, end))) return door.destroy();
    if (head.length > end + 4) client.write(head.subarray(end + 4));
    pipeBoth(client, door);
    client.resume();
  };
  door.on('data', answer);
}
function listen(listener) {
  const serve = (host, ipv6Only, onError) =>
    new Promise((resolve, reject) => {
      const server = net.createServer((client) => relay(client, listener));
      server.once('error', (error) => (onError ? onError(error).then(resolve, reject) : reject(error)));
      server.listen({ port: listener.port, host, ipv6Only }, resolve);
    });
  // Both loopbacks where the kernel has IPv6; IPv4 alone where it has not.
  return serve('::', false, (error) =>
    ['EAFNOSUPPORT', 'EADDRNOTAVAIL'].includes(error.code) ? serve('0.0.0.0', false) : Promise.reject(error),
  );
}
Promise.all(plan.listeners.map(listen)).then(
  () => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
    // A stop signals the whole group: the program ends itself, the relay serves it until it has.
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
    for (const signal of signals) process.on(signal, () => {});
    child.on('error', (error) => fail(argv[0] + ': ' + error.message, error.code === 'ENOENT' ? 127 : 126));
    child.on('exit', (code, signal) => {
      if (code !== null) process.exit(code);
      for (const name of signals) process.removeAllListeners(name);
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128), 1000);
    });
  },
  (error) => fail('could not open a port of the sandbox network: ' + error.message, 70),
);
`;

/** The argv that starts the relay (with `node`) serving `listeners`, then `argv`. */
export function relayArgv(
  node: string,
  listeners: readonly RelayListener[],
  argv: readonly string[],
): string[] {
  if (argv.length === 0) throw new Error('no program for the sandbox relay to start');
  return [node, '-e', RELAY_SOURCE, '--', JSON.stringify({ listeners }), ...argv];
}
