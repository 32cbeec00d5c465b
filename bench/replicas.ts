/**
 * Scale-out: real `gaffer start` processes (the replica harness of the test suites) on one
 * PostgreSQL database (a scratch one, created and dropped) and one Redis, 1,000 tasks on the board.
 * `GET /api/kanban` as the CEO, loaded by a round-robin client (one autocannon per replica, the
 * connections split evenly) against one replica and against three, in interleaved rounds (median).
 * The scaling factor is 3-replica requests/s over 1-replica requests/s. On a machine of C cores
 * shared by the client, the replicas and PostgreSQL it is bounded by C / (the share of a request's
 * CPU a replica spends), not by 3: the figure shows what this machine allows, not a cap of Gaffer.
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_REPLICAS and GAFFER_BENCH_REDIS_URL adjust a run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { tasks } from '../src/modules/tasks/schema.js';
import { openDatabase } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { freePort, median, onScratchDatabase, openTaskRows, ratio, report } from './support.js';

const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 30;
const REDIS_URL = process.env.GAFFER_BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

const MAIN = new URL('../src/main.ts', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One `gaffer start` process; resolves once its /ready answers 200 (3 minutes at most: a busy machine). */
async function startReplica(env: NodeJS.ProcessEnv): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('node', ['--import', 'tsx', MAIN, 'start'], {
    env: { ...env, GAFFER_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a replica exited while starting (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('a replica was not ready in 3 minutes');
    const ready = await fetch(`${base}/ready`).catch(() => undefined);
    if (ready?.status === 200) return { base, child };
    await sleep(300);
  }
}

/** Loads `bases` at once, the connections split evenly; answers the summed requests/s and errors. */
async function roundRobin(bases: string[], headers: Record<string, string>) {
  const runs = await Promise.all(
    bases.map((base) =>
      autocannon({
        url: `${base}/api/kanban`,
        headers,
        duration: SECONDS,
        connections: Math.max(1, Math.round(CONNECTIONS / bases.length)),
      }),
    ),
  );
  return {
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requests.average, 0),
    errors: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
  };
}

const result = await onScratchDatabase(async (databaseUrl) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-replicas-'));
  const secret = randomBytes(32).toString('hex');
  const ceoHeaders = { 'x-agent-token': staticToken(secret, CEO_IDENTITY) };
  const keyPrefix = `gaffer-bench-${randomBytes(4).toString('hex')}:`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  const env = (index: number): NodeJS.ProcessEnv => ({
    ...clean,
    GAFFER_DATA_DIR: join(dataDir, `replica-${index}`),
    GAFFER_AUTH_SECRET: secret,
    GAFFER_LOG_LEVEL: 'error',
    GAFFER_DISPATCH_ENABLED: 'false',
    GAFFER_DATABASE_URL: databaseUrl,
    GAFFER_DATABASE_POOL_SIZE: '10',
    GAFFER_REDIS_URL: REDIS_URL,
    GAFFER_REDIS_KEY_PREFIX: keyPrefix,
    GAFFER_GUARD_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  // The first one migrates the database; the others then start together.
  const first = await startReplica(env(0));
  const replicas = [first];
  try {
    replicas.push(
      ...(await Promise.all(Array.from({ length: REPLICAS - 1 }, (_, i) => startReplica(env(i + 1))))),
    );
    const database = await openDatabase({ url: databaseUrl, migrate: false });
    try {
      await database.db.insert(tasks).values(openTaskRows(1000, 'replicas'));
    } finally {
      await database.close();
    }
    const bases = replicas.map((replica) => replica.base);
    const one: number[] = [];
    const all: number[] = [];
    let errors = 0;
    await roundRobin(bases, ceoHeaders); // warm-up, every replica
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [1, REPLICAS] : [REPLICAS, 1];
      for (const count of order) {
        const run = await roundRobin(bases.slice(0, count), ceoHeaders);
        errors += run.errors;
        (count === 1 ? one : all).push(Math.round(run.requestsPerSecond));
      }
    }
    return { one, all, errors };
  } finally {
    for (const { child } of replicas) {
      if (child.exitCode !== null) continue;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const oneRps = median(result.one);
const allRps = median(result.all);
report(
  'replicas',
  {
    replicas: REPLICAS,
    cores: cpus().length,
    rounds: ROUNDS,
    seconds: SECONDS,
    connections: CONNECTIONS,
    kanban_one_replica: { runs: result.one, requestsPerSecond: oneRps },
    kanban_all_replicas: { runs: result.all, requestsPerSecond: allRps },
    errors: result.errors,
  },
  {
    description: `GET /api/kanban with ${REPLICAS} replicas vs 1 (round-robin client), no errors; the factor is bounded by the cores the machine has`,
    met: result.errors === 0,
    ratios: [
      ratio(
        `GET /api/kanban ${REPLICAS} replicas / 1`,
        allRps / oneRps,
        '1 replica on the same database, same run',
        '>=',
        1,
      ),
    ],
  },
);
process.exit(0);
