/** Shared benchmark plumbing: start a target process, load it with autocannon, print one JSON result line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

/** The PostgreSQL server the benchmarks make their scratch databases on. */
export const BENCH_ADMIN_URL =
  process.env.GAFFER_BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs `body` on a fresh PostgreSQL database of its own (its URL given), dropped afterwards. */
export async function onScratchDatabase<T>(body: (url: string) => Promise<T>): Promise<T> {
  const name = `gaffer_bench_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await body(url.toString());
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

export async function startTarget(
  script: string,
  args: string[],
): Promise<{ port: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    'node',
    ['--import', 'tsx', new URL(script, import.meta.url).pathname, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('{')) {
      const { port } = JSON.parse(line) as { port: number };
      return {
        port,
        async stop() {
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    }
  }
  throw new Error(`${script} exited before printing its port`);
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export async function load(
  url: string,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    duration: options.seconds,
    connections: options.connections,
    pipelining: 1,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** One machine-readable line per benchmark, plus whether it met its target. */
export function report(
  name: string,
  data: Record<string, unknown>,
  target: { description: string; met: boolean },
): void {
  console.log(JSON.stringify({ bench: name, ...data, target: target.description, target_met: target.met }));
}
