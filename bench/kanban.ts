/**
 * `GET /api/kanban` over 10,000 tasks (and its team-filtered and all-terminal variants), next to
 * its SQL alone: the very statements the kanban service runs for that request
 * (`boardStatements`), executed directly on the same database by the same process, one at a time
 * like the route's single connection, in the same run. Reports p50/p99 and requests/s of both and
 * the p99 ratio route / SQL, on PostgreSQL (a scratch database, when available) and on PGlite.
 * Target: route p99 ≤ 2 × its SQL’s p99. BENCH_CPU_PROFILE=<dir> writes the Gaffer target’s CPU profile there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { configWith } from '../src/config.js';
import { KANBAN_STATES } from '../src/modules/kanban/board.js';
import { boardStatements, type KanbanQuery } from '../src/modules/kanban/service.js';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { Db } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { onScratchDatabase, ratio, report, startCpuProfile, startTarget } from './support.js';

const TASKS = 10_000;
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

/** The target process: Gaffer on the given database (PGlite when none), seeded, then listening. */
async function serve(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-kanban-'));
  const server = await startServer(
    configWith({ dataDir, databaseUrl, port: 0, logLevel: 'warn', authSecret: SECRET }),
  );
  await seed(server.platform.database.db);
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE, 'kanban-serve');
  process.on('SIGTERM', () => {
    void Promise.all([profile?.(), server.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
  // `sql <variant>`: the variant's statements alone, on this process's database; one JSON answer.
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, variant] = line.trim().split(' ');
    if (command === 'sql') {
      console.log(JSON.stringify(await sqlAlone(server.platform.database.db, VARIANTS[variant!]!.query)));
    }
  }
}

/** The request variants: the route's path, and the same request as the service's query. */
const VARIANTS: Record<string, { path: string; query: KanbanQuery }> = {
  board: { path: '/api/kanban', query: {} },
  team_filtered: { path: '/api/kanban?team=backend', query: { team: 'backend' } },
  all_terminal: {
    path: '/api/kanban?include_terminal=true&limit=500',
    query: { includeTerminal: true, limit: 500 },
  },
};

/**
 * The board's statements alone, as the service issues them (both side by side), in a closed loop
 * of one — the route's concurrency — for a 2 s warm-up and then `seconds`.
 */
async function sqlAlone(db: Db, query: KanbanQuery): Promise<Latency> {
  const statements = boardStatements(db, query);
  const loop = async (duration: number) => {
    const times: number[] = [];
    let errors = 0;
    const end = performance.now() + duration * 1000;
    while (performance.now() < end) {
      const started = performance.now();
      try {
        await Promise.all([statements.counts(), statements.cards()]);
      } catch {
        errors++;
      }
      times.push(performance.now() - started);
    }
    return { times, errors };
  };
  await loop(2);
  const { times, errors } = await loop(seconds);
  const sorted = times.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100;
  return {
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    requestsPerSecond: Math.round(times.length / seconds),
    errors,
  };
}

/** 10,000 tasks over 5 projects and 3 teams; most of them done, as on a board that has lived. */
async function seed(db: Db): Promise<void> {
  const projectIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const [row] = await db
      .insert(projects)
      .values({
        slug: `bench-${i}`,
        name: `Bench ${i}`,
        gitUrl: `https://example.test/${i}.git`,
        createdBy: 'ceo',
      })
      .returning({ id: projects.id });
    projectIds.push(row!.id);
  }
  const teams = ['backend', 'frontend', 'ux_ui'];
  const statusFor = (i: number) =>
    i % 10 < 6 ? 'completed' : i % 10 === 6 ? 'cancelled' : KANBAN_STATES[(i * 7) % 13]!;
  const now = Date.now();
  for (let start = 0; start < TASKS; start += 1000) {
    await db.insert(tasks).values(
      Array.from({ length: 1000 }, (_, k) => {
        const i = start + k;
        return {
          title: `Bench task ${i}`,
          description: 'A task seeded for the kanban benchmark.',
          acceptanceCriteria: [{ id: 'ac-1', text: 'It works.' }],
          status: statusFor(i),
          priority: i % 4,
          taskType: 'code',
          nature: 'technical',
          complexity: 'medium',
          team: teams[i % 3]!,
          projectId: projectIds[i % 5]!,
          createdBy: 'ceo',
          updatedAt: new Date(now - i * 37_000),
        };
      }),
    );
  }
  await db.execute(sql`analyze tasks`);
}

interface Latency {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  errors: number;
}

async function measure(port: number, path: string): Promise<Latency> {
  const headers = { 'x-agent-token': staticToken(SECRET, CEO_IDENTITY) };
  const run = (duration: number) =>
    autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, duration, connections: 1, pipelining: 1 });
  // Warm-up: 2 s, longer while a cold first request has not finished yet (PGlite on a busy machine).
  for (let i = 0; i < 5 && (await run(2)).requests.total === 0; i++);
  const result = await run(seconds);
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    // A run that finished no request has no latency to compare: it counts as an error.
    errors: result.errors + result.non2xx + (result.requests.total === 0 ? 1 : 0),
  };
}

interface Compared {
  route: Latency;
  sql_alone: Latency;
  ratio_p99: number;
}

async function onTarget(databaseUrl: string | undefined): Promise<Record<string, Compared>> {
  const target = await startTarget('./kanban.ts', ['serve', databaseUrl ?? '']);
  try {
    const compared: Record<string, Compared> = {};
    for (const [name, variant] of Object.entries(VARIANTS)) {
      const route = await measure(target.port, variant.path);
      const sqlAlone = await target.ask<Latency>(`sql ${name}`);
      compared[name] = {
        route,
        sql_alone: sqlAlone,
        ratio_p99: Math.round((route.p99Ms / sqlAlone.p99Ms) * 100) / 100,
      };
    }
    return compared;
  } finally {
    await target.stop();
  }
}

async function drive(): Promise<void> {
  let postgres: Record<string, Compared> | { skipped: string };
  try {
    postgres = await onScratchDatabase((url) => onTarget(url));
  } catch (error) {
    postgres = { skipped: `PostgreSQL unavailable: ${(error as Error).message}` };
  }
  const pglite = await onTarget(undefined);
  const stores: [string, Record<string, Compared> | { skipped: string }][] = [
    ['PostgreSQL', postgres],
    ['PGlite', pglite],
  ];
  const ratios = stores.flatMap(([store, runs]) =>
    'skipped' in runs
      ? []
      : Object.entries(runs).map(([name, run]) =>
          ratio(
            `GET ${VARIANTS[name]!.path} p99 / its SQL alone p99 (${store})`,
            run.route.p99Ms / run.sql_alone.p99Ms,
            `the service's statements run directly, one at a time, same ${store} database, same run`,
            '<=',
            2,
          ),
        ),
  );
  const clean = stores.every(
    ([, runs]) =>
      'skipped' in runs || Object.values(runs).every((run) => run.route.errors + run.sql_alone.errors === 0),
  );
  report(
    'kanban',
    {
      tasks: TASKS,
      seconds,
      connections: 1,
      postgres,
      pglite,
    },
    {
      description:
        'GET /api/kanban p99 <= 2 x the same statements run alone (p99), PostgreSQL and PGlite; no errors',
      met: clean,
      ratios,
    },
  );
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] || undefined);
} else {
  await drive();
}
