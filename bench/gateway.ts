/**
 * The agent gateway under load: 50 scripted developer agents (extra roster members, spread over
 * the three cells), each looping over its own branchless task (no project, so no git: the time
 * measured is the gateway's own) through real HTTP, with real tokens:
 *   give_me_work → i_will_work_on (claim, plan, start) → give_me_work (the task in hand) →
 *   i_will_work_on (re-entry) → do/evidence → do/note → do/read_a2a → unclaim → …
 * for a fixed time after a warm-up. Runs on PostgreSQL (GAFFER_BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; a database of its own is created and dropped) and on
 * embedded PGlite; each target is Gaffer's whole stack in its own process (this file, `serve`).
 * Prints verbs/s, p50/p99 overall and per verb, non-ok envelopes by flavor, and (PostgreSQL) the
 * SQL statements each verb issues, counted in-process on one agent's walk. BENCH_AGENTS,
 * BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_POOL_SIZE, BENCH_GATEWAY_ONLY (postgres | pglite) and
 * BENCH_CPU_PROFILE (a directory for the target's CPU profile) adjust a run.
 * Target: p99 < 25 ms on PostgreSQL at 50 concurrent agents, and no HTTP errors.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { configWith } from '../src/config.js';
import { agents } from '../src/modules/agents/index.js';
import { tasks } from '../src/modules/tasks/index.js';
import type { Db } from '../src/platform/db/client.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { WORK_PLAN } from '../test/gateway-support.js';
import { onScratchDatabase, report, startTarget } from './support.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const TARGET_P99_MS = 25;
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const TEAMS = ['backend', 'frontend', 'ux_ui'] as const;

interface BenchAgent {
  id: string;
  team: string;
  taskId: string;
}

/** Agents and their tasks, named by the driver so both processes know them. */
function planAgents(count: number): BenchAgent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    team: TEAMS[i % TEAMS.length]!,
    taskId: randomUUID(),
  }));
}

/** Extra developers on the roster, each with one pending code task assigned to it, without a project. */
async function seed(db: Db, plan: BenchAgent[], tag: string): Promise<void> {
  await db.insert(agents).values(
    plan.map((a, i) => ({
      id: a.id,
      slug: `bench-dev-${tag}-${i + 1}`,
      name: `Bench developer ${i + 1}`,
      role: 'developer',
      team: a.team,
    })),
  );
  await db.insert(tasks).values(
    plan.map((a, i) => ({
      id: a.taskId,
      title: `Gateway bench task ${i + 1}`,
      description: 'A branchless code task walked over and over by the gateway benchmark.',
      acceptanceCriteria: [{ id: 'ac-1', text: 'The gateway answers quickly.' }],
      taskType: 'code',
      nature: 'technical',
      complexity: 'low',
      team: a.team,
      assignedTo: a.id,
      createdBy: 'ceo',
    })),
  );
}

const benchConfig = (dataDir: string, databaseUrl: string | undefined) =>
  configWith({
    dataDir,
    databaseUrl,
    port: 0,
    logLevel: 'warn',
    authSecret: SECRET,
    dispatchEnabled: false, // nothing but the scripted agents touches the tasks
    ...(process.env.BENCH_POOL_SIZE ? { databasePoolSize: Number(process.env.BENCH_POOL_SIZE) } : {}),
  });

/** The target process: Gaffer on the given database (PGlite when none), seeded, then listening. */
async function serve(databaseUrl: string | undefined, plan: BenchAgent[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-gateway-'));
  const server = await startServer(benchConfig(dataDir, databaseUrl));
  await seed(server.platform.database.db, plan, 'load');
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE);
  process.on('SIGTERM', () => {
    void Promise.all([profile?.(), server.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
}

/**
 * With BENCH_CPU_PROFILE=<dir>, the target records a CPU profile (open it in Chrome DevTools) and
 * writes it to that directory when stopped; answers the function that writes it.
 */
async function startCpuProfile(dir: string | undefined): Promise<(() => Promise<void>) | undefined> {
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
    writeFileSync(join(dir, `gateway-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

/** One step of an agent's walk: the verb's label, its path and its body. */
interface Step {
  verb: string;
  path: string;
  body: object;
}

function walkOf(task: string): Step[] {
  const flow = (verb: string, body: object = {}): Step => ({
    verb,
    path: `/api/v1/flow/developer/${verb}`,
    body,
  });
  const tool = (name: string, body: object = {}): Step => ({
    verb: `do/${name}`,
    path: '/api/v1/do',
    body: { tool: name, ...body },
  });
  return [
    flow('give_me_work'),
    flow('i_will_work_on', { task_id: task, ...WORK_PLAN }),
    flow('give_me_work'),
    { ...flow('i_will_work_on', { task_id: task, ...WORK_PLAN }), verb: 'i_will_work_on (re-entry)' },
    tool('evidence', { task_id: task }),
    tool('note', { task_id: task, text: 'Health route drafted; the HTTP test is next.' }),
    tool('read_a2a'),
    flow('unclaim', { task_id: task, reason: 'Benchmark: giving it back to take it again.' }),
  ];
}

interface Envelope {
  ok: boolean;
  error: string | null;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** 50 agent loops on the target for the warm-up, then for SECONDS while measuring. */
async function hammer(port: number, plan: BenchAgent[]) {
  const base = `http://127.0.0.1:${port}`;
  let recording = false;
  let stopping = false;
  const all: number[] = [];
  const byVerb = new Map<string, number[]>();
  const nonOk: Record<string, number> = {};
  let httpErrors = 0;

  const loop = async (agent: BenchAgent) => {
    const headers = {
      'content-type': 'application/json',
      'x-agent-id': agent.id,
      'x-agent-role': 'developer',
      'x-agent-team': agent.team,
      'x-agent-token': staticToken(SECRET, { id: agent.id, role: 'developer', team: agent.team }),
    };
    const walk = walkOf(agent.taskId);
    for (let i = 0; !stopping; i = (i + 1) % walk.length) {
      const step = walk[i]!;
      const started = performance.now();
      const response = await fetch(base + step.path, {
        method: 'POST',
        headers,
        body: JSON.stringify(step.body),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (!recording) continue;
      all.push(ms);
      const list = byVerb.get(step.verb) ?? [];
      list.push(ms);
      byVerb.set(step.verb, list);
      if (response.status !== 200) {
        if (++httpErrors <= 3) console.error(step.verb, response.status, text.slice(0, 300));
        continue;
      }
      const envelope = JSON.parse(text) as Envelope;
      if (!envelope.ok) {
        const flavor = `${step.verb}: ${envelope.error}`;
        nonOk[flavor] = (nonOk[flavor] ?? 0) + 1;
        if (nonOk[flavor] === 1) console.error('non-ok envelope', text.slice(0, 400));
      }
    }
  };

  const loops = Promise.all(plan.map(loop));
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  recording = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  recording = false;
  const seconds = (performance.now() - started) / 1000;
  stopping = true;
  await loops;

  all.sort((a, b) => a - b);
  const perVerb = Object.fromEntries(
    [...byVerb].map(([verb, list]) => {
      list.sort((a, b) => a - b);
      return [
        verb,
        { count: list.length, p50Ms: round2(percentile(list, 50)), p99Ms: round2(percentile(list, 99)) },
      ];
    }),
  );
  return {
    verbs: all.length,
    verbs_per_second: Math.round(all.length / seconds),
    p50Ms: round2(percentile(all, 50)),
    p99Ms: round2(percentile(all, 99)),
    maxMs: round2(all.at(-1) ?? 0),
    http_errors: httpErrors,
    non_ok_envelopes: nonOk,
    per_verb: perVerb,
  };
}

/**
 * Where the time goes: one agent walks the loop twice, alone, in this process (app.inject) on the
 * PostgreSQL database; the second walk's SQL statements (BEGIN/COMMIT included) and time per verb.
 */
async function profileQueries(databaseUrl: string) {
  let statements = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-gateway-profile-'));
  const server = await startServer(benchConfig(dataDir, databaseUrl));
  try {
    const [agent] = planAgents(1);
    await seed(server.platform.database.db, [agent!], 'profile');
    const headers = {
      'x-agent-id': agent!.id,
      'x-agent-role': 'developer',
      'x-agent-team': agent!.team,
      'x-agent-token': staticToken(SECRET, { id: agent!.id, role: 'developer', team: agent!.team }),
    };
    const result: Record<string, { statements: number; ms: number; ok: boolean }> = {};
    for (let round = 0; round < 2; round++) {
      for (const step of walkOf(agent!.taskId)) {
        const before = statements;
        const started = performance.now();
        const response = await server.app.inject({
          method: 'POST',
          url: step.path,
          headers,
          payload: step.body,
        });
        const ms = performance.now() - started;
        result[step.verb] = {
          statements: statements - before,
          ms: round2(ms),
          ok: response.statusCode === 200 && (response.json() as Envelope).ok,
        };
      }
    }
    return result;
  } finally {
    await server.close();
    pg.Client.prototype.query = query;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onTarget(databaseUrl: string | undefined) {
  const plan = planAgents(AGENTS);
  const target = await startTarget('./gateway.ts', ['serve', databaseUrl ?? '', JSON.stringify(plan)]);
  try {
    return await hammer(target.port, plan);
  } finally {
    await target.stop();
  }
}

async function drive(): Promise<void> {
  const only = process.env.BENCH_GATEWAY_ONLY; // 'postgres' | 'pglite', to run one of them
  let postgres: Awaited<ReturnType<typeof onTarget>> | { skipped: string } = { skipped: 'not run' };
  let statementsPerVerb: Awaited<ReturnType<typeof profileQueries>> | undefined;
  if (only !== 'pglite') {
    try {
      postgres = await onScratchDatabase(async (url) => {
        const result = await onTarget(url);
        statementsPerVerb = await profileQueries(url);
        return result;
      });
    } catch (error) {
      postgres = { skipped: `PostgreSQL unavailable: ${(error as Error).message}` };
    }
  }
  const pglite = only === 'postgres' ? { skipped: 'not run' } : await onTarget(undefined);
  const met = 'p99Ms' in postgres && postgres.p99Ms < TARGET_P99_MS && postgres.http_errors === 0;
  report(
    'gateway',
    {
      agents: AGENTS,
      seconds: SECONDS,
      pool_size: benchConfig('', undefined).databasePoolSize,
      postgres,
      pglite,
      ...(statementsPerVerb ? { postgres_statements_per_verb: statementsPerVerb } : {}),
    },
    { description: `p99 < ${TARGET_P99_MS} ms on PostgreSQL at ${AGENTS} concurrent agents`, met },
  );
  process.exit(met ? 0 : 1);
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] || undefined, JSON.parse(process.argv[4] ?? '[]') as BenchAgent[]);
} else {
  await drive();
}
