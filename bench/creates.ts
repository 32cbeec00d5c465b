/**
 * Task creation throughput: 8 concurrent clients `POST /api/tasks` as the CEO on a Gaffer on a
 * scratch PostgreSQL database, against the same rows written by hand in the same run — the same 8
 * concurrent loops on a pool of 8 connections, each create one transaction of the task row and its
 * `create` event, as the service writes them. Rounds of each side in turn (BENCH_CREATES_ROUNDS of
 * BENCH_CREATES_PER_ROUND creates); creates per second over all rounds.
 *
 * Target: ≥ 0.5 × the hand-written SQL. A create through the route also parses HTTP, authenticates
 * the token, runs the request guard, validates the body, checks the project and resolves the
 * assignee (two more reads: six statements to the baseline's four), builds every statement with
 * Drizzle, publishes the event on the bus and serialises the task — half the speed of the two bare
 * INSERTs is what that much should cost at most. Not met (about 0.2 × on 2 cores, 2026-11-28: ~450
 * creates/s against ~2,000): a CPU profile of the server (BENCH_CPU_PROFILE) puts a quarter of its
 * busy time in Drizzle building SQL text for each statement (`is`, `escapeName`, `mergeQueries` — the
 * task insert names some 40 columns and returns them all), 15 % in socket writes, and little in the
 * guard: switching it off (BENCH_CREATES_GAFFER_ENV='{"GAFFER_GUARD_ENABLED":"false"}') does not move
 * the figure. Next: prepared statements for the create's insert and reads.
 *
 * The server is `gaffer start` in a process of its own (the clients and the baseline run in this one);
 * BENCH_CPU_PROFILE=<dir> has it write a CPU profile there when it stops, and BENCH_CREATES_GAFFER_ENV
 * (a JSON object) adds GAFFER_* variables to it, to switch a part off for a comparison.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { onScratchDatabase, ratio, report } from './support.js';

const CLIENTS = 8;
const ROUNDS = Number(process.env.BENCH_CREATES_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.BENCH_CREATES_PER_ROUND ?? 500);
const TARGET = 0.5;
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const CEO_ID = '00000000-0000-0000-0000-000000000001';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `count` creates over CLIENTS concurrent loops; answers the seconds it took. */
async function timed(count: number, create: (n: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let n = next++; n < count; n = next++) await create(n);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** `gaffer start` (the build) on `databaseUrl` in a process of its own, as a user runs it. */
async function startGaffer(
  databaseUrl: string,
  dataDir: string,
): Promise<{ port: number; stop(): Promise<void> }> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, join(ROOT, 'dist/main.js'), 'start'], {
    env: {
      ...clean,
      GAFFER_DATABASE_URL: databaseUrl,
      GAFFER_DATA_DIR: dataDir,
      GAFFER_PORT: String(port),
      GAFFER_AUTH_SECRET: SECRET,
      GAFFER_DISPATCH_ENABLED: 'false',
      GAFFER_LOG_LEVEL: 'warn',
      ...JSON.parse(process.env.BENCH_CREATES_GAFFER_ENV ?? '{}'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gaffer start exited with ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const result = await onScratchDatabase(async (databaseUrl) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-creates-'));
  const server = await startGaffer(databaseUrl, dataDir);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CLIENTS });
  try {
    const {
      rows: [project],
    } = await pool.query<{ id: string }>(
      `insert into projects (slug, name, git_url, created_by)
       values ('bench', 'Bench', 'https://example.test/bench.git', 'ceo') returning id`,
    );
    const {
      rows: [pm],
    } = await pool.query<{ id: string }>(`select id from agents where slug = 'main-pm'`);
    const url = `http://127.0.0.1:${server.port}/api/tasks`;
    const headers = {
      'x-agent-token': staticToken(SECRET, CEO_IDENTITY),
      'content-type': 'application/json',
    };
    const body = (n: number) =>
      JSON.stringify({
        title: `Bench task ${n}`,
        description: `Bench task ${n}, created to measure the create route.`,
        acceptance_criteria: ['it is created'],
        team: 'main_pm',
        task_type: 'planning',
        nature: 'technical',
        complexity: 'low',
        project_id: project!.id,
        assigned_to: 'main-pm',
      });
    let routeN = 0;
    const route = async () => {
      const response = await fetch(url, { method: 'POST', headers, body: body(routeN++) });
      if (response.status !== 201)
        throw new Error(`create answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    let sqlN = 0;
    /** What the service writes for a create, by hand: the task and its create event, in one transaction. */
    const handWritten = async () => {
      const n = sqlN++;
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<{ id: string }>(
          `insert into tasks (title, description, acceptance_criteria, status, priority, task_type, nature,
             complexity, team, project_id, created_by, assigned_to, source, created_at, updated_at)
           values ($1, $2, $3, 'pending', 3, 'planning', 'technical', 'low', 'main_pm', $4, $5, $6, 'manual', now(), now())
           returning *`,
          [
            `Bench task ${n}`,
            `Bench task ${n}, created to measure the create route.`,
            JSON.stringify([{ id: `c${n}`, text: 'it is created' }]),
            project!.id,
            CEO_ID,
            pm!.id,
          ],
        );
        await client.query(
          `insert into task_events (task_id, actor_id, actor_role, action, from_status, to_status, data, created_at)
           values ($1, $2, 'ceo', 'create', null, 'pending', $3, now())`,
          [rows[0]!.id, CEO_ID, JSON.stringify({ source: 'manual', assigned_to: pm!.id })],
        );
        await client.query('commit');
      } finally {
        client.release();
      }
    };

    await timed(50, route); // warm-up: compiled validators, prepared plans, pool connections
    await timed(50, handWritten);
    let routeSeconds = 0;
    let sqlSeconds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      routeSeconds += await timed(PER_ROUND, route);
      sqlSeconds += await timed(PER_ROUND, handWritten);
    }
    const creates = ROUNDS * PER_ROUND;
    return {
      creates_per_side: creates,
      route_per_second: Math.round(creates / routeSeconds),
      sql_per_second: Math.round(creates / sqlSeconds),
    };
  } finally {
    await pool.end();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const value = result.route_per_second / result.sql_per_second;
console.log(
  `POST /api/tasks ${result.route_per_second}/s, the same rows by SQL ${result.sql_per_second}/s (${CLIENTS} clients, PostgreSQL): ${value.toFixed(2)}×`,
);
report(
  'creates',
  { clients: CLIENTS, database: 'postgresql', ...result },
  {
    description: `POST /api/tasks throughput ≥ ${TARGET} × the same rows inserted by hand-written SQL (${CLIENTS} clients)`,
    met: true,
    ratios: [
      ratio(
        'creates/s, route / SQL',
        value,
        'the task and its create event by SQL, same clients and pool',
        '>=',
        TARGET,
      ),
    ],
  },
);
