/**
 * The agent gateway under load: 50 scripted developer agents (extra roster members, spread over
 * the three cells), each looping over its own branchless task (no project, so no git: the time
 * measured is the gateway's own) through real HTTP, with real tokens:
 *   give_me_work → i_will_work_on (claim, plan, start) → give_me_work (the task in hand) →
 *   i_will_work_on (re-entry) → do/evidence → do/note → do/read_a2a → unclaim → …
 * for a fixed time after a closed-loop warm-up, twice: a closed loop (each agent calls its next
 * verb as soon as the last one answers), then paced (each agent thinks BENCH_THINK_MS, default
 * 1000, after every verb, as a real agent CLI does while its model works). Runs on PostgreSQL (GAFFER_BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test; a database of its own is created and dropped)
 * and on embedded PGlite; each target is Gaffer's whole stack in its own process (this file,
 * `serve`, one per run). Prints verbs/s, p50/p99 overall and per verb, non-ok envelopes by flavor,
 * the target's CPU per verb answered, the whole machine's CPU per verb (driver, target and database
 * together: a closed loop of N agents on C cores waits at least N × that / C per verb on average,
 * `closed_loop_floor_ms`), and (PostgreSQL) the SQL statements each verb issues (BEGIN/COMMIT
 * included), counted in-process on one agent walking alone.
 * BENCH_AGENTS, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_THINK_MS (0: no paced run),
 * BENCH_POOL_SIZE, BENCH_GATEWAY_ONLY (postgres | pglite | statements: only the per-verb costs,
 * BENCH_PRINT_SQL=1 to list the statements) and BENCH_CPU_PROFILE (a directory for the target's
 * CPU profile) adjust a run.
 * Target: p99 < 25 ms on PostgreSQL at 50 concurrent agents in the closed loop, and no HTTP errors.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { configWith } from '../src/config.js';
import { agents } from '../src/modules/agents/schema.js';
import { WORK_PLAN } from '../src/modules/gateway/test-fixtures.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { Db } from '../src/platform/db/client.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { onScratchDatabase, ratio, report, startCpuProfile, startTarget } from './support.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
/** Walks of the lone agent counting each verb's statements (the last one is reported). */
const PROFILE_WALKS = Number(process.env.BENCH_PROFILE_WALKS ?? 5);
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

/**
 * The target process: Gaffer on the given database (PGlite when none), seeded, then listening; when
 * stopped it writes the CPU it used since it was ready to `statsFile`.
 */
async function serve(databaseUrl: string | undefined, plan: BenchAgent[], statsFile: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-gateway-'));
  const server = await startServer(benchConfig(dataDir, databaseUrl));
  await seed(server.platform.database.db, plan, `load-${plan[0]?.id.slice(0, 8)}`);
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE, 'gateway');
  const ready = process.cpuUsage();
  process.on('SIGTERM', () => {
    const used = process.cpuUsage(ready);
    writeFileSync(statsFile, JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }));
    void Promise.all([profile?.(), server.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The agent loops on the target for the warm-up, then for SECONDS while measuring. The warm-up is
 * always a closed loop, so that the target's hot paths are compiled as in a server that has been up
 * a while; then, with `thinkMs`, each agent pauses that long after every verb (its first pause
 * cut at a random point, so that the agents do not move in step), and the measuring starts once
 * the closed loop's queue has drained.
 */
async function hammer(port: number, plan: BenchAgent[], thinkMs: number) {
  const base = `http://127.0.0.1:${port}`;
  let recording = false;
  let pacing = false;
  let stopping = false;
  const all: number[] = [];
  const byVerb = new Map<string, number[]>();
  const nonOk: Record<string, number> = {};
  let httpErrors = 0;
  let served = 0;

  const loop = async (agent: BenchAgent) => {
    const headers = {
      'content-type': 'application/json',
      'x-agent-id': agent.id,
      'x-agent-role': 'developer',
      'x-agent-team': agent.team,
      'x-agent-token': staticToken(SECRET, { id: agent.id, role: 'developer', team: agent.team }),
    };
    const walk = walkOf(agent.taskId);
    let paced = false;
    for (let i = 0; !stopping; i = (i + 1) % walk.length) {
      if (pacing) {
        await sleep(paced ? thinkMs : Math.random() * thinkMs);
        paced = true;
      }
      const step = walk[i]!;
      const started = performance.now();
      const response = await fetch(base + step.path, {
        method: 'POST',
        headers,
        body: JSON.stringify(step.body),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      served++;
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
  await sleep(WARMUP_SECONDS * 1000);
  if (thinkMs > 0) {
    pacing = true;
    await sleep(2 * thinkMs + 1000);
  }
  recording = true;
  const started = performance.now();
  const busyBefore = machineBusyMs();
  await sleep(SECONDS * 1000);
  recording = false;
  const busy = machineBusyMs() - busyBefore;
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
    ...(thinkMs > 0
      ? { think_ms: thinkMs, offered_verbs_per_second_at_most: Math.round((plan.length * 1000) / thinkMs) }
      : {}),
    verbs: all.length,
    verbs_per_second: Math.round(all.length / seconds),
    p50Ms: round2(percentile(all, 50)),
    p99Ms: round2(percentile(all, 99)),
    maxMs: round2(all.at(-1) ?? 0),
    http_errors: httpErrors,
    non_ok_envelopes: nonOk,
    per_verb: perVerb,
    /**
     * The whole machine's CPU per verb while measuring (this driver, the target, PostgreSQL and
     * anything else running), and the cores it has: the floor of a closed loop's mean latency is
     * agents × that / cores, whatever the gateway's code does.
     */
    machine_cpu_ms_per_verb: Number.isNaN(busy) ? null : round2(busy / Math.max(all.length, 1)),
    cores: cpus().length,
    /** Every verb answered, warm-up included (what the target's CPU was spent on). */
    served,
  };
}

/** CPU time every core of the machine has been busy (Linux /proc/stat; NaN elsewhere), in ms. */
function machineBusyMs(): number {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
    const [user, nice, system, , , irq, softirq, steal] = cpu!.trim().split(/\s+/).slice(1).map(Number);
    const ticks = user! + nice! + system! + irq! + softirq! + steal!;
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/** A statement as BENCH_PRINT_SQL=1 lists it on stderr. */
function describeStatement(args: unknown[]): string {
  const query = args[0] as string | { text?: string; name?: string };
  const text =
    typeof query === 'string' ? query : `${query.name ? `[${query.name}] ` : ''}${query.text ?? ''}`;
  return text.replace(/\s+/g, ' ').slice(0, 400);
}

/**
 * What each verb issues: one agent walks the loop PROFILE_WALKS times, alone, in this process
 * (app.inject) on the PostgreSQL database. Per verb: the SQL statements (BEGIN/COMMIT included)
 * and the time of the last walk, whether it answered ok; and the mean statements per verb.
 */
async function profileVerbs(databaseUrl: string) {
  let statements = 0;
  let printing = false; // BENCH_PRINT_SQL=1: the last walk's statements, at their offset in the verb
  let verbStarted = 0;
  const printSql = process.env.BENCH_PRINT_SQL === '1';
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    if (printing) {
      const offset = (performance.now() - verbStarted).toFixed(1).padStart(6);
      console.error(`   +${offset} ms SQL`, describeStatement(args));
    }
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
    const perVerb: Record<string, { statements: number; ms: number; ok: boolean }> = {};
    for (let walk = 0; walk < PROFILE_WALKS; walk++) {
      printing = printSql && walk === PROFILE_WALKS - 1;
      for (const step of walkOf(agent!.taskId)) {
        const before = statements;
        if (printing) console.error(`== ${step.verb}`);
        const started = performance.now();
        verbStarted = started;
        const response = await server.app.inject({
          method: 'POST',
          url: step.path,
          headers,
          payload: step.body,
        });
        perVerb[step.verb] = {
          statements: statements - before,
          ms: round2(performance.now() - started),
          ok: response.statusCode === 200 && (response.json() as Envelope).ok,
        };
      }
    }
    const verbs = Object.values(perVerb);
    return {
      per_verb: perVerb,
      statements_per_verb: round2(verbs.reduce((sum, v) => sum + v.statements, 0) / verbs.length),
    };
  } finally {
    await server.close();
    pg.Client.prototype.query = query;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One run on a target process of its own: the agents' loops (paced with `thinkMs`), and the
 * target's CPU per verb answered.
 */
async function onTarget(databaseUrl: string | undefined, thinkMs: number) {
  const plan = planAgents(AGENTS);
  const statsFile = join(mkdtempSync(join(tmpdir(), 'gaffer-bench-gateway-stats-')), 'stats.json');
  const target = await startTarget('./gateway.ts', [
    'serve',
    databaseUrl ?? '',
    JSON.stringify(plan),
    statsFile,
  ]);
  let result: Awaited<ReturnType<typeof hammer>>;
  try {
    result = await hammer(target.port, plan, thinkMs);
  } finally {
    await target.stop();
  }
  const { cpuMs } = JSON.parse(readFileSync(statsFile, 'utf8')) as { cpuMs: number };
  rmSync(dirname(statsFile), { recursive: true, force: true });
  const { served, ...measured } = result;
  return { ...measured, cpu_ms_per_verb: round2(cpuMs / Math.max(served, 1)) };
}

/** The closed loop, then (with a think time) the paced run. */
async function runs(databaseUrl: string | undefined) {
  const closed = await onTarget(databaseUrl, 0);
  const paced = THINK_MS > 0 ? await onTarget(databaseUrl, THINK_MS) : { skipped: 'BENCH_THINK_MS=0' };
  return {
    closed: {
      ...closed,
      closed_loop_floor_ms:
        closed.machine_cpu_ms_per_verb === null
          ? null
          : round2((closed.machine_cpu_ms_per_verb * AGENTS) / closed.cores),
    },
    paced,
  };
}

type Skipped = { skipped: string };

async function drive(): Promise<void> {
  const only = process.env.BENCH_GATEWAY_ONLY; // 'postgres' | 'pglite' | 'statements'
  if (only === 'statements') {
    console.log(JSON.stringify(await onScratchDatabase((url) => profileVerbs(url)), null, 1));
    process.exit(0);
  }
  let postgres: Awaited<ReturnType<typeof runs>> | Skipped = { skipped: 'not run' };
  let statements: Awaited<ReturnType<typeof profileVerbs>> | undefined;
  if (only !== 'pglite') {
    try {
      postgres = await onScratchDatabase(async (url) => {
        const result = await runs(url);
        statements = await profileVerbs(url);
        return result;
      });
    } catch (error) {
      postgres = { skipped: `PostgreSQL unavailable: ${(error as Error).message}` };
    }
  }
  const pglite = only === 'postgres' ? { skipped: 'not run' } : await runs(undefined);
  const closed = 'closed' in postgres ? postgres.closed : undefined;
  const paced = 'closed' in postgres && 'p99Ms' in postgres.paced ? postgres.paced : undefined;
  const met = !!closed && closed.p99Ms < TARGET_P99_MS && closed.http_errors === 0;
  report(
    'gateway',
    {
      agents: AGENTS,
      seconds: SECONDS,
      pool_size: benchConfig('', undefined).databasePoolSize,
      postgres,
      pglite,
      ...(statements ? { postgres_statements: statements } : {}),
      ...(closed ? { closed_loop_p99_ms: closed.p99Ms } : {}),
      ...(paced
        ? {
            paced_p99_ms: paced.p99Ms,
            paced_note: `with ${THINK_MS} ms of think time per agent, not the target's closed loop`,
          }
        : {}),
    },
    {
      description: `p99 < ${TARGET_P99_MS} ms on PostgreSQL at ${AGENTS} concurrent agents in a closed loop`,
      met,
      // The machine's floor for the closed loop, measured in the same run: agents × the whole
      // machine's CPU per verb / cores (see hammer).
      ratios: closed?.closed_loop_floor_ms
        ? [
            ratio(
              'closed-loop p50 / machine floor',
              closed.p50Ms / closed.closed_loop_floor_ms,
              `${AGENTS} agents × machine CPU per verb / cores, same run`,
              '<=',
              2,
            ),
          ]
        : [],
    },
  );
  process.exit(met ? 0 : 1);
}

if (process.argv[2] === 'serve') {
  await serve(
    process.argv[3] || undefined,
    JSON.parse(process.argv[4] ?? '[]') as BenchAgent[],
    process.argv[5]!,
  );
} else {
  await drive();
}
