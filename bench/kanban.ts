import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { configWith } from '../src/config.js';
import { KANBAN_STATES } from '../src/modules/kanban/board.js';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { Db } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { startServer } from '../src/server.js';
import { onScratchDatabase, report, startTarget } from './support.js';

const TASKS = 10_000;
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] || undefined);
} else {
  await drive();
}

/** The target process: Gaffer on the given database (PGlite when none), seeded, then listening. */
async function serve(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-kanban-'));
  const server = await startServer(
    configWith({ dataDir, databaseUrl, port: 0, logLevel: 'warn', authSecret: SECRET }),
  );
  await seed(server.platform.database.db);
  process.on('SIGTERM', () => {
    void server.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
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
  await run(2); // warm-up
  const result = await run(seconds);
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    errors: result.errors + result.non2xx,
  };
}

async function onTarget(databaseUrl: string | undefined) {
  const target = await startTarget('./kanban.ts', ['serve', databaseUrl ?? '']);
  try {
    return {
      board: await measure(target.port, '/api/kanban'),
      team_filtered: await measure(target.port, '/api/kanban?team=backend'),
      all_terminal: await measure(target.port, '/api/kanban?include_terminal=true&limit=500'),
    };
  } finally {
    await target.stop();
  }
}

async function drive(): Promise<void> {
  let postgres: Awaited<ReturnType<typeof onTarget>> | { skipped: string };
  try {
    postgres = await onScratchDatabase((url) => onTarget(url));
  } catch (error) {
    postgres = { skipped: `PostgreSQL unavailable: ${(error as Error).message}` };
  }
  const pglite = await onTarget(undefined);
  const met = 'board' in postgres && postgres.board.p99Ms < 50 && postgres.board.errors === 0;
  report('kanban', { tasks: TASKS, postgres, pglite }, { description: 'p99 < 50 ms on PostgreSQL', met });
}
