/**
 * One event fanned out to 2,000 /ws/system sockets of Gaffer in its own process, next to a bare
 * `ws` WebSocketServer in its own process (bench/ws-bare-server.ts) broadcasting the same frame to
 * as many sockets, measured the same way in the same run: the p50/p99 latency from publish (on the
 * server) to receipt (on each client) over several rounds, and each server's resident memory per
 * open socket. Targets: Gaffer's p99 ≤ 2 × the bare server's p99; < 50 KB per socket.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { ratio, report } from './support.js';

const SOCKETS = Number(process.env.BENCH_WS_SOCKETS ?? 2000);
const ROUNDS = Number(process.env.BENCH_WS_ROUNDS ?? 30);
const CONNECT_BATCH = 100;

interface Memory {
  rss: number;
  heap: number;
}

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Starts `script` in its own process, opens SOCKETS sockets on it and times ROUNDS publishes. */
async function fanout(script: string) {
  const child = spawn('node', ['--expose-gc', '--import', 'tsx', new URL(script, import.meta.url).pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();

  /** Sends one command to the server and returns its JSON answer (non-JSON lines are skipped). */
  async function ask<T>(command?: string): Promise<T> {
    if (command) child.stdin.write(`${command}\n`);
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`${script} exited`);
      if (value.startsWith('{')) return JSON.parse(value) as T;
    }
  }

  const latencies: number[] = [];
  let expected = 0;
  let arrived = 0;
  let roundDone: (() => void) | undefined;

  function openSocket(url: string): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      let first = true;
      ws.on('message', (data) => {
        if (first) {
          first = false; // the `connected` frame
          return resolve(ws);
        }
        const frame = JSON.parse(data.toString()) as { provider: string };
        latencies.push(now() - Number(frame.provider));
        arrived += 1;
        if (arrived === expected) roundDone?.();
      });
      ws.on('error', reject);
    });
  }

  const { port } = await ask<{ port: number }>();
  const url = `ws://127.0.0.1:${port}/ws/system`;
  // Warm-up: let start-up garbage go and the socket code paths load before the baseline.
  const warm = await Promise.all(Array.from({ length: CONNECT_BATCH }, () => openSocket(url)));
  for (const ws of warm) ws.close();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await ask<Memory>('rss');
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SOCKETS; i += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, SOCKETS - i) }, () => openSocket(url));
    sockets.push(...(await Promise.all(batch)));
  }
  const counted = await ask<{ system: number }>('count');
  const after = await ask<Memory>('rss');

  for (let round = 0; round < ROUNDS; round += 1) {
    arrived = 0;
    expected = SOCKETS;
    const done = new Promise<void>((resolve) => {
      roundDone = resolve;
    });
    await ask('publish');
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 5000))]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  for (const ws of sockets) ws.terminate();
  child.stdin.write('exit\n');
  await once(child, 'exit');

  const sorted = latencies.sort((a, b) => a - b);
  const bytesPerSocket = Math.round((after.rss - before.rss) / SOCKETS);
  return {
    open_on_server: counted.system,
    delivered: latencies.length,
    p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
    p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
    bytesPerSocket,
    rss_before_mb: Math.round(before.rss / 1048576),
    rss_after_mb: Math.round(after.rss / 1048576),
    kb_per_socket: Math.round(bytesPerSocket / 102.4) / 10,
    heap_kb_per_socket: Math.round((after.heap - before.heap) / SOCKETS / 102.4) / 10,
  };
}

const { bytesPerSocket, ...gaffer } = await fanout('./ws-server.ts');
const { bytesPerSocket: _bare, ...bare } = await fanout('./ws-bare-server.ts');
const expected = SOCKETS * ROUNDS;
report(
  'ws-fanout',
  { sockets: SOCKETS, rounds: ROUNDS, expected, ...gaffer, bare_ws: bare },
  {
    description:
      "p99 publish→receipt <= 2 x a bare ws server's broadcast of the same frame to as many sockets; < 50 KB RSS per socket; every frame delivered",
    met: bytesPerSocket < 50 * 1024 && gaffer.delivered === expected && bare.delivered === expected,
    ratios: [
      ratio(
        'fan-out p99 / bare ws broadcast p99',
        gaffer.p99Ms / bare.p99Ms,
        `a bare ws WebSocketServer in its own process, the same frame to ${SOCKETS} sockets, same run`,
        '<=',
        2,
      ),
    ],
  },
);
process.exit(0);
