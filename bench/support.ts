/** Shared benchmark plumbing: start a target process, load it with autocannon, print one JSON result line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

/** A loopback port free right now, for a target process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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

/**
 * Starts a target script in its own process and waits for its first JSON line (`{"port", …}`):
 * answers the port, the whole line, the process id (for its RSS), a stop function, and `ask`: one
 * command line to the target's stdin, answered by its next JSON line (for targets that take
 * commands, like the kanban one's in-process SQL baseline).
 */
export async function startTarget(
  script: string,
  args: string[],
  env?: Record<string, string>,
): Promise<{
  port: number;
  pid: number;
  info: Record<string, unknown>;
  stop(): Promise<void>;
  ask<T>(command: string): Promise<T>;
}> {
  const child: ChildProcess = spawn(
    'node',
    ['--import', 'tsx', new URL(script, import.meta.url).pathname, ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: env ? { ...process.env, ...env } : process.env,
    },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextJson = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`${script} exited before answering`);
      if (value.startsWith('{')) return JSON.parse(value) as Record<string, unknown>;
    }
  };
  const info = await nextJson();
  return {
    port: Number(info.port),
    pid: child.pid!,
    info,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
    async ask<T>(command: string) {
      child.stdin!.write(`${command}\n`);
      return (await nextJson()) as T;
    },
  };
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

/**
 * A ratio against a baseline measured beside it in the same run: `value` is the measured ratio,
 * `limit` the target, `op` the side of it that passes.
 */
export interface Ratio {
  name: string;
  value: number;
  baseline: string;
  op: '>=' | '<=';
  limit: number;
  met: boolean;
}

export function ratio(name: string, value: number, baseline: string, op: '>=' | '<=', limit: number): Ratio {
  // Two decimals, or three where two would round a miss onto the limit.
  const two = Math.round(value * 100) / 100;
  const rounded = two === limit && value !== limit ? Math.round(value * 1000) / 1000 : two;
  return { name, value: rounded, baseline, op, limit, met: op === '>=' ? value >= limit : value <= limit };
}

/** A finished benchmark, as bench/run.ts collects it into bench/results.json. */
export interface BenchRecord {
  bench: string;
  target: string;
  target_met: boolean;
  ratios: Ratio[];
  [figure: string]: unknown;
}

/**
 * One machine-readable line per benchmark (`{"bench": …}` on stdout): its figures, the ratios it
 * measured against its in-run baselines, and whether it met its target (every ratio met, plus
 * whatever else `met` says).
 */
export function report(
  name: string,
  data: Record<string, unknown>,
  target: { description: string; met: boolean; ratios?: Ratio[] },
): void {
  const ratios = target.ratios ?? [];
  const record: BenchRecord = {
    bench: name,
    ...data,
    ratios,
    target: target.description,
    target_met: target.met && ratios.every((r) => r.met),
  };
  console.log(JSON.stringify(record));
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? sorted[mid]!
      : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The `q` quantile (0–1) of `samples` in milliseconds, rounded to hundredths. */
export const quantileMs = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 100) / 100;
};

/**
 * `samples` timings (ms) of a route and of its baseline, taken in turn, so both see the same caches
 * and the same neighbours on the machine.
 */
export async function interleavedTimings(
  samples: number,
  route: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<{ route: number[]; baseline: number[] }> {
  const timings = { route: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < samples; i++) {
    let started = performance.now();
    await route();
    timings.route.push(performance.now() - started);
    started = performance.now();
    await baseline();
    timings.baseline.push(performance.now() - started);
  }
  return timings;
}

/**
 * A route timed against the same work done directly: three warm-ups of the baseline, then `samples`
 * interleaved pairs; each side's p50 and p99 in ms, and the p99 ratio (route / baseline).
 */
export async function routeAgainstBaseline(
  samples: number,
  route: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
) {
  for (let i = 0; i < 3; i++) await baseline();
  const timings = await interleavedTimings(samples, route, baseline);
  const side = (ms: number[]) => ({ p50_ms: quantileMs(ms, 0.5), p99_ms: quantileMs(ms, 0.99) });
  const [routeSide, baselineSide] = [side(timings.route), side(timings.baseline)];
  return {
    route: routeSide,
    baseline: baselineSide,
    ratio_p99: Math.round((routeSide.p99_ms / baselineSide.p99_ms) * 100) / 100,
  };
}

/** One HTTP target of an interleaved comparison. */
export interface Contender {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Loads each contender in turn, `rounds` times (the order rotating each round), for `seconds` each,
 * after a warm-up: on a shared, noisy machine both sides of a ratio then see the same weather.
 * Answers each contender's runs and the median of its requests per second.
 */
export async function interleave(
  contenders: readonly Contender[],
  options: { rounds: number; seconds: number; connections: number; warmupSeconds?: number },
): Promise<Record<string, { runs: LoadResult[]; requestsPerSecond: number; errors: number }>> {
  const runs = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  const one = async (contender: Contender, duration: number) => {
    const result = await autocannon({
      url: contender.url,
      headers: contender.headers ?? {},
      duration,
      connections: options.connections,
      pipelining: 1,
    });
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx,
    };
  };
  for (const contender of contenders) await one(contender, options.warmupSeconds ?? 2);
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(round + k) % contenders.length]!;
      runs.get(contender.name)!.push(await one(contender, options.seconds));
    }
  }
  return Object.fromEntries(
    [...runs].map(([name, list]) => [
      name,
      {
        runs: list,
        requestsPerSecond: Math.round(median(list.map((run) => run.requestsPerSecond))),
        errors: list.reduce((sum, run) => sum + run.errors, 0),
      },
    ]),
  );
}

/** Resident set size of a process (Linux /proc), in MB; NaN when it cannot be read. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * With BENCH_CPU_PROFILE=<dir>, the target records a CPU profile (open it in Chrome DevTools) and
 * writes it to that directory when stopped; answers the function that writes it.
 */
export async function startCpuProfile(
  dir: string | undefined,
  name: string,
): Promise<(() => Promise<void>) | undefined> {
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

/** `count` open task rows spread over three teams, for a benchmark that needs a board to list. */
export function openTaskRows(count: number, bench: string) {
  return Array.from({ length: count }, (_, i) => ({
    title: `${bench} bench task ${i}`,
    description: `A task seeded for the ${bench} benchmark.`,
    acceptanceCriteria: [{ id: 'ac-1', text: 'It is listed.' }],
    taskType: 'code',
    nature: 'technical',
    complexity: 'low',
    team: ['backend', 'frontend', 'ux_ui'][i % 3]!,
    createdBy: 'ceo',
  }));
}

/** This process's memory once garbage is collected (with --expose-gc) and has settled: RSS and heap + external. */
export async function settledMemory(): Promise<{ rss: number; heap: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i += 1) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const memory = process.memoryUsage();
  return { rss: memory.rss, heap: memory.heapUsed + memory.external };
}
