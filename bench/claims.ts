/**
 * Atomic claims under contention, through the TasksService (no HTTP): 200 concurrent claimers race
 * for 2,000 pending tasks until every one is claimed, in two scenarios (see below): `pool`
 * (claimers pick random unclaimed tasks off a shared board, colliding as on a real one) and
 * `lockstep` (the worst case: every task fought over by 4 claimers at the same instant). Verified
 * from the audit trail: every task claimed exactly once, by the agent that holds it. Runs on
 * PostgreSQL (a database of its own, created and dropped, on GAFFER_BENCH_DATABASE_URL) and on
 * embedded PGlite.
 * Target: claims/s on PostgreSQL in the pool scenario at least 0.6 × a bare `FOR UPDATE SKIP
 * LOCKED` loop of the same concurrency run beside it (bareSkipLocked), and zero double claims in
 * every run. Claimers are cell PMs of the tasks' team: coordinators may hold many tasks, so one
 * claimer can win several (a developer is held to one task at a time by design).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { AgentsService, seedDefaultCompany } from '../src/modules/agents/index.js';
import { ProjectsService } from '../src/modules/projects/index.js';
import { type Actor, TasksService } from '../src/modules/tasks/index.js';
import { tasks } from '../src/modules/tasks/schema.js';
import { insertAgents } from '../src/modules/tasks/test-fixtures.js';
import { startEventBus } from '../src/platform/bus/index.js';
import { openStores } from '../src/platform/cache/index.js';
import { systemClock } from '../src/platform/clock.js';
import { type Database, openDatabase, queryRows } from '../src/platform/db/client.js';
import { AppError } from '../src/platform/http/errors.js';
import { insertProject } from '../test/fixtures-task-rows.js';
import { onScratchDatabase, ratio, report } from './support.js';

const TASKS = Number(process.env.BENCH_CLAIM_TASKS ?? 2_000);
const CLAIMERS = Number(process.env.BENCH_CLAIMERS ?? 200);
const PER_TASK = Number(process.env.BENCH_CLAIMERS_PER_TASK ?? 4); // claimers racing for each task
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 20);

/**
 * How the claimers choose tasks.
 * - `pool`: like agents reading a board — each claimer picks a random task it does not yet know to
 *   be claimed, from a view shared by all claimers and updated after every answer (won or 409), until
 *   every task is claimed. Two claimers collide whenever they pick the same task before the view
 *   catches up, as on a real board.
 * - `lockstep`: the worst case — groups of `perTask` claimers walk the same tasks in the same order,
 *   so every single task is fought over by `perTask` claimers at the same instant.
 */
export type Scenario = 'pool' | 'lockstep';

export interface Attempt {
  /** Next task for claimer `index` to try, or undefined when it is done. */
  next(index: number): string | undefined;
  /** The answer for a task: it is claimed now (won, or 409 already_claimed). */
  settled(id: string): void;
}

export function poolAttempts(ids: readonly string[]): Attempt {
  const open = [...ids];
  const position = new Map(open.map((id, index) => [id, index]));
  return {
    next: () => (open.length === 0 ? undefined : open[Math.floor(Math.random() * open.length)]),
    settled(id) {
      const index = position.get(id);
      if (index === undefined) return;
      const last = open.pop()!;
      if (last !== id) {
        open[index] = last;
        position.set(last, index);
      }
      position.delete(id);
    },
  };
}

export function lockstepAttempts(ids: readonly string[], claimers: number, perTask: number): Attempt {
  const groups = Math.ceil(claimers / perTask);
  const perGroup = Math.ceil(ids.length / groups);
  const cursor = new Array<number>(claimers).fill(0);
  return {
    next(index) {
      const group = index % groups;
      const offset = cursor[index]!;
      if (offset >= perGroup) return undefined;
      cursor[index] = offset + 1;
      return ids[group * perGroup + offset];
    },
    settled() {},
  };
}

interface RunResult {
  scenario: Scenario;
  tasks: number;
  claimers: number;
  attempts: number;
  claims: number;
  conflicts: number;
  unexpected_errors: number;
  double_claims: number;
  seconds: number;
  claims_per_second: number;
}

async function seed(
  database: Database,
): Promise<{ service: TasksService; claimers: Actor[]; ids: string[] }> {
  const { db } = database;
  await seedDefaultCompany(db);
  const projectId = await insertProject(db);
  const rows = await insertAgents(
    db,
    CLAIMERS,
    'cell_pm',
    'backend',
    `bench-pm-${randomBytes(3).toString('hex')}`,
  );
  const claimers: Actor[] = rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    role: 'cell_pm',
    team: 'backend',
  }));
  const ids: string[] = [];
  for (let start = 0; start < TASKS; start += 500) {
    const batch = Array.from({ length: Math.min(500, TASKS - start) }, (_, i) => ({
      title: `Bench task ${start + i}`,
      description: 'A task to be claimed by the claims benchmark.',
      acceptanceCriteria: [{ id: `ac${start + i}`, text: 'claimed once' }],
      taskType: 'planning',
      nature: 'technical',
      complexity: 'low',
      team: 'backend',
      projectId,
      createdBy: 'bench',
    }));
    const inserted = await db.insert(tasks).values(batch).returning({ id: tasks.id });
    ids.push(...inserted.map((row) => row.id));
  }
  const agentsService = new AgentsService(db, systemClock);
  // The service announces every claim on the bus, as in the app (in-process cache here).
  const { cache } = await openStores({ database });
  const bus = await startEventBus(cache, { now: () => systemClock.now() });
  const service = new TasksService(
    { database, clock: systemClock, bus },
    { agents: agentsService, projects: new ProjectsService(db) },
  );
  return { service, claimers, ids };
}

async function race(database: Database, scenario: Scenario): Promise<RunResult> {
  const { service, claimers, ids } = await seed(database);
  const plan: Attempt =
    scenario === 'pool' ? poolAttempts(ids) : lockstepAttempts(ids, claimers.length, PER_TASK);
  let attempts = 0;
  let claims = 0;
  let conflicts = 0;
  let unexpected = 0;
  const claimer = async (actor: Actor, index: number) => {
    for (let id = plan.next(index); id !== undefined; id = plan.next(index)) {
      attempts++;
      try {
        await service.claim(id, actor);
        claims++;
        plan.settled(id);
      } catch (error) {
        if (error instanceof AppError && error.code === 'already_claimed') {
          conflicts++;
          plan.settled(id);
        } else {
          unexpected++;
          if (unexpected <= 3) console.error(error);
          if (unexpected > 100) return;
        }
      }
    }
  };
  const started = performance.now();
  await Promise.all(claimers.map((actor, index) => claimer(actor, index)));
  const seconds = (performance.now() - started) / 1000;

  const [audit] = await queryRows<{
    claim_events: number;
    doubled: number;
    mismatched: number;
    unclaimed: number;
  }>(
    database.db,
    sql`with claims as (
          select task_id, count(*)::int as n, min(actor_id) as actor_id
          from task_events where action = 'claim' group by task_id)
        select
          (select coalesce(sum(n), 0)::int from claims) as claim_events,
          (select count(*)::int from claims where n > 1) as doubled,
          (select count(*)::int from claims c join tasks t on t.id = c.task_id
             where t.active_claimant_id::text <> c.actor_id) as mismatched,
          (select count(*)::int from tasks where active_claimant_id is null) as unclaimed`,
  );
  if (!audit || audit.claim_events !== claims || audit.mismatched !== 0 || audit.unclaimed !== 0) {
    console.error('audit disagrees with the claims made', { audit, claims });
    unexpected++;
  }
  return {
    scenario,
    tasks: ids.length,
    claimers: claimers.length,
    attempts,
    claims,
    conflicts,
    unexpected_errors: unexpected,
    double_claims: audit?.doubled ?? -1,
    seconds: Math.round(seconds * 1000) / 1000,
    claims_per_second: Math.round(claims / seconds),
  };
}

/** Each scenario on a fresh PostgreSQL database of its own, dropped afterwards. */
async function onPostgres(scenario: Scenario): Promise<RunResult> {
  return onScratchDatabase(async (url) => {
    const database = await openDatabase({ url, poolSize: POOL_SIZE });
    try {
      return await race(database, scenario);
    } finally {
      await database.close();
    }
  });
}

/** Each scenario on a fresh in-memory PGlite. */
async function onPglite(scenario: Scenario): Promise<RunResult> {
  const database = await openDatabase({});
  try {
    return await race(database, scenario);
  } finally {
    await database.close();
  }
}

/**
 * The floor: the same number of claimers on a pool of the same size, each looping over the bare
 * statement `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING id` on a table
 * of as many rows, until none is left; on the same PostgreSQL server in the same run.
 */
async function bareSkipLocked(): Promise<{
  claims: number;
  double_claims: number;
  claims_per_second: number;
}> {
  return onScratchDatabase(async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
    // A connection cut while idle (the scratch database is dropped WITH (FORCE)) must not end the run.
    pool.on('error', () => {});
    try {
      await pool.query('create table bare_claims (id serial primary key, claimant int)');
      await pool.query('insert into bare_claims (claimant) select null from generate_series(1, $1)', [TASKS]);
      let claims = 0;
      const claimer = async (index: number) => {
        for (;;) {
          const { rowCount } = await pool.query(
            `update bare_claims set claimant = $1
             where id = (select id from bare_claims where claimant is null
                         order by id limit 1 for update skip locked)
             returning id`,
            [index],
          );
          if (!rowCount) return;
          claims++;
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CLAIMERS }, (_, index) => claimer(index)));
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await pool.query<{ unclaimed: number }>(
        'select count(*)::int as unclaimed from bare_claims where claimant is null',
      );
      return {
        claims,
        double_claims: claims - (TASKS - (rows[0]?.unclaimed ?? 0)),
        claims_per_second: Math.round(claims / seconds),
      };
    } finally {
      await pool.end();
    }
  });
}

const only = process.env.BENCH_CLAIMS_ONLY; // 'postgres' | 'pglite', to run one of them
const scenarios: Scenario[] = ['pool', 'lockstep'];
const postgres: RunResult[] = [];
const pglite: RunResult[] = [];
let bare: Awaited<ReturnType<typeof bareSkipLocked>> | undefined;
for (const scenario of scenarios) {
  if (only !== 'pglite') postgres.push(await onPostgres(scenario));
  if (scenario === 'pool' && only !== 'pglite') bare = await bareSkipLocked();
  if (only !== 'postgres') pglite.push(await onPglite(scenario));
}
const sound = (run: RunResult) =>
  run.claims === run.tasks && run.double_claims === 0 && run.unexpected_errors === 0;
const poolRate = postgres.find((run) => run.scenario === 'pool')?.claims_per_second ?? 0;
const met = [...postgres, ...pglite].every(sound);
report(
  'claims',
  { pool_size: POOL_SIZE, postgres, pglite, ...(bare ? { bare_skip_locked: bare } : {}) },
  {
    description:
      'claims/s on PostgreSQL (pool scenario) >= 0.6 x a bare FOR UPDATE SKIP LOCKED loop of the same concurrency; every task claimed exactly once',
    met,
    ratios: bare
      ? [
          ratio(
            'claims/s (pool) / bare SKIP LOCKED loop',
            poolRate / bare.claims_per_second,
            `bare UPDATE … FOR UPDATE SKIP LOCKED, ${CLAIMERS} claimers, pool ${POOL_SIZE}, same run`,
            '>=',
            0.6,
          ),
        ]
      : [],
  },
);
process.exit(met ? 0 : 1);
