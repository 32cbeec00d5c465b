/**
 * One event fanned out to 2,000 /ws/system sockets of a server in its own process. Reports the
 * p50/p99 latency from publish (on the server) to receipt (on each client) over several rounds,
 * and the server's resident memory per open socket. Targets: p99 < 100 ms, < 50 KB per socket.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { report } from './support.js';

const SOCKETS = Number(process.env.BENCH_WS_SOCKETS ?? 2000);
const ROUNDS = Number(process.env.BENCH_WS_ROUNDS ?? 30);
const CONNECT_BATCH = 100;

const child = spawn(
  'node',
  ['--expose-gc', '--import', 'tsx', new URL('./ws-server.ts', import.meta.url).pathname],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();

/** Sends one command to the server and returns its JSON answer (non-JSON lines are skipped). */
async function ask<T>(command?: string): Promise<T> {
  if (command) child.stdin.write(`${command}\n`);
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error('ws-server exited');
    if (value.startsWith('{')) return JSON.parse(value) as T;
  }
}

interface Memory {
  rss: number;
  heap: number;
}

const now = () => performance.timeOrigin + performance.now();
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

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
const p50Ms = Math.round(percentile(sorted, 50) * 100) / 100;
const p99Ms = Math.round(percentile(sorted, 99) * 100) / 100;
const bytesPerSocket = Math.round((after.rss - before.rss) / SOCKETS);
const delivered = latencies.length;
report(
  'ws-fanout',
  {
    sockets: SOCKETS,
    open_on_server: counted.system,
    rounds: ROUNDS,
    delivered,
    expected: SOCKETS * ROUNDS,
    p50Ms,
    p99Ms,
    rss_before_mb: Math.round(before.rss / 1048576),
    rss_after_mb: Math.round(after.rss / 1048576),
    kb_per_socket: Math.round(bytesPerSocket / 102.4) / 10,
    heap_kb_per_socket: Math.round((after.heap - before.heap) / SOCKETS / 102.4) / 10,
  },
  {
    description: 'p99 < 100 ms and < 50 KB RSS per socket, every frame delivered',
    met: p99Ms < 100 && bytesPerSocket < 50 * 1024 && delivered === SOCKETS * ROUNDS,
  },
);
process.exit(0);
