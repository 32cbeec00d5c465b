/**
 * One event fanned out to 2,000 /ws/system sockets of Gaffer in its own process, next to a bare
 * `ws` WebSocketServer in its own process (bench/ws-bare-server.ts) broadcasting the same frame to
 * as many sockets, measured the same way in the same run: the p50/p99 latency from publish (on the
 * server) to receipt (on each client, this process) over several rounds, and each server's resident
 * memory per open socket. Both servers run at once with their sockets open, and the rounds take
 * turns (the order rotating), so both sides see the same neighbours on the machine; each side gets
 * one untimed broadcast first. Targets: Gaffer's p99 ≤ 2 × the bare server's p99; < 50 KB per socket.
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
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** One target server in its own process, the sockets this process holds on it, and their receipts. */
class Target {
  readonly latencies: number[] = [];
  private readonly child;
  private readonly lines;
  private readonly sockets: WebSocket[] = [];
  private url = '';
  private timed = false;
  private expected = 0;
  private arrived = 0;
  private roundDone: (() => void) | undefined;

  constructor(private readonly script: string) {
    this.child = spawn(
      'node',
      ['--expose-gc', '--import', 'tsx', new URL(script, import.meta.url).pathname],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  /** Sends one command to the server and returns its JSON answer (non-JSON lines are skipped). */
  async ask<T>(command?: string): Promise<T> {
    if (command) this.child.stdin.write(`${command}\n`);
    for (;;) {
      const { value, done } = await this.lines.next();
      if (done) throw new Error(`${this.script} exited`);
      if (value.startsWith('{')) return JSON.parse(value) as T;
    }
  }

  async start(): Promise<void> {
    const { port } = await this.ask<{ port: number }>();
    this.url = `ws://127.0.0.1:${port}/ws/system`;
  }

  /** Opens `count` sockets, CONNECT_BATCH at a time, each resolved on its `connected` frame. */
  async open(count: number): Promise<WebSocket[]> {
    const opened: WebSocket[] = [];
    for (let i = 0; i < count; i += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, () => this.openSocket());
      opened.push(...(await Promise.all(batch)));
    }
    this.sockets.push(...opened);
    return opened;
  }

  /** Publishes one event and waits until every open socket has it (at most 5 s); timed or not. */
  async round(timed: boolean): Promise<void> {
    this.timed = timed;
    this.arrived = 0;
    this.expected = this.sockets.length;
    const done = new Promise<void>((resolve) => {
      this.roundDone = resolve;
    });
    await this.ask('publish');
    await Promise.race([done, pause(5000)]);
  }

  /** Closes `sockets` (the warm-up ones) and forgets them. */
  close(sockets: WebSocket[]): void {
    for (const ws of sockets) {
      ws.close();
      this.sockets.splice(this.sockets.indexOf(ws), 1);
    }
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.child.stdin.write('exit\n');
    await once(this.child, 'exit');
  }

  private openSocket(): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      let first = true;
      ws.on('message', (data) => {
        if (first) {
          first = false; // the `connected` frame
          return resolve(ws);
        }
        const frame = JSON.parse(data.toString()) as { provider: string };
        if (this.timed) this.latencies.push(now() - Number(frame.provider));
        this.arrived += 1;
        if (this.arrived === this.expected) this.roundDone?.();
      });
      ws.on('error', reject);
    });
  }
}

/** Warms a target up: start-up garbage goes, and the socket and broadcast paths run once untimed. */
async function warmUp(target: Target): Promise<void> {
  await target.start();
  const warm = await target.open(CONNECT_BATCH);
  await target.round(false);
  target.close(warm);
}

/** Opens SOCKETS sockets on a target; answers the server's count and its memory before and after. */
async function populate(target: Target) {
  const before = await target.ask<Memory>('rss');
  await target.open(SOCKETS);
  const counted = await target.ask<{ system: number }>('count');
  const after = await target.ask<Memory>('rss');
  await target.round(false);
  return { counted, before, after };
}

function figures(target: Target, { counted, before, after }: Awaited<ReturnType<typeof populate>>) {
  const sorted = target.latencies.sort((a, b) => a - b);
  const bytesPerSocket = Math.round((after.rss - before.rss) / SOCKETS);
  return {
    open_on_server: counted.system,
    delivered: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
    p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
    bytesPerSocket,
    rss_before_mb: Math.round(before.rss / 1048576),
    rss_after_mb: Math.round(after.rss / 1048576),
    kb_per_socket: Math.round(bytesPerSocket / 102.4) / 10,
    heap_kb_per_socket: Math.round((after.heap - before.heap) / SOCKETS / 102.4) / 10,
  };
}

const targets = [new Target('./ws-server.ts'), new Target('./ws-bare-server.ts')] as const;
await Promise.all(targets.map(warmUp));
await pause(2000);
const opened = [await populate(targets[0]), await populate(targets[1])] as const;
for (let round = 0; round < ROUNDS; round += 1) {
  for (let k = 0; k < targets.length; k += 1) {
    await targets[(round + k) % targets.length]!.round(true);
    await pause(50);
  }
}
await Promise.all(targets.map((target) => target.stop()));

const { bytesPerSocket, ...gaffer } = figures(targets[0], opened[0]);
const { bytesPerSocket: _bare, ...bare } = figures(targets[1], opened[1]);
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
        `a bare ws WebSocketServer in its own process, the same frame to ${SOCKETS} sockets, rounds in turn, same run`,
        '<=',
        2,
      ),
    ],
  },
);
process.exit(0);
