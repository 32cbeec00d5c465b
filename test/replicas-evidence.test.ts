/**
 * The evidence read model on two replicas: two real `gaffer start` processes on one PostgreSQL and
 * one Redis, both with the dispatcher on, run the scripted company, and both fold every task's outcome (each hears
 * every change over the shared bus). Three root tasks — one marked "[fail]", so QA sends its first
 * round back — go through the whole pipeline and the CEO merges them. The rows the two kept as the
 * work happened are exactly the rows `rebuildOutcomes` folds from the record alone: no double
 * count, no fold of less overwriting one of more; and the developer scorecard counts each task once.
 *
 * Needs the real servers: skipped without GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildOutcomes } from '../src/modules/evidence/index.js';
import { type Database, openDatabase, queryRows } from '../src/platform/db/client.js';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { eventually, type Replicas, startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';

/** One root per cell (the scripted main PM delegates by a word of the title), one marked to fail QA once. */
const ROOTS = ['Health endpoint [fail]', 'Version on the web page'];

describe.skipIf(!testDatabaseUrl || !testRedisUrl)(
  'task outcomes kept by two dispatching replicas (needs GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL)',
  () => {
    const dirs = tempDirs('gaffer-replicas-evidence-');
    let stores: TestStores;
    let cluster: Replicas;
    let database: Database;

    beforeAll(async () => {
      stores = await createTestStores();
      cluster = await startReplicas(2, stores, {
        env: {
          GAFFER_AGENT_RUNTIME: 'scripted',
          GAFFER_AGENT_PROVIDER: 'scripted',
          GAFFER_DISPATCH_ENABLED: 'true',
          GAFFER_DISPATCH_INTERVAL_SECONDS: '1',
        },
      });
      database = await openDatabase({ url: stores.databaseUrl, poolSize: 2, migrate: false });
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await cluster?.close();
      await stores?.dispose();
      dirs.cleanup();
    }, 60_000);

    const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
    const outcomes = async () =>
      (await rows<Record<string, unknown>>(sql`select * from task_outcomes order by task_id`)).map(
        ({ updated_at: _written, ...row }) => row,
      );

    it('keeps the same rows a rebuild folds from the record, while both replicas dispatch', async () => {
      const [first, second] = cluster.replicas as [
        (typeof cluster.replicas)[0],
        (typeof cluster.replicas)[0],
      ];
      const git = new GitRunner({ home: join(dirs.make(), 'home') });
      const remote = await seedBareRemote(git, join(dirs.make(), 'shop.git'), [
        { message: 'Initial commit', files: { 'README.md': '# Shop\n' } },
      ]);
      const project = await first.asCeo('/api/projects', {
        body: { slug: 'shop', name: 'Shop', git_url: remote },
      });
      expect(project.status).toBe(201);
      const projectId = ((await project.json()) as { id: string }).id;

      // Each root task is created through a different replica.
      const roots: string[] = [];
      for (const [i, title] of ROOTS.entries()) {
        const created = await cluster.replicas[i % 2]!.asCeo('/api/tasks', {
          body: {
            title,
            description: `${title}, for the load balancer and the operators.`,
            acceptance_criteria: [`${title} is delivered`],
            team: 'main_pm',
            task_type: 'planning',
            nature: 'technical',
            complexity: 'medium',
            project_id: projectId,
            assigned_to: 'main-pm',
          },
        });
        expect(created.status).toBe(201);
        roots.push(((await created.json()) as { id: string }).id);
      }
      // The CEO merges each root as it reaches the inbox (through either replica): the cells' changes
      // all touch scripted/**, so a later one may wait for an earlier one's merge.
      const status = async (id: string) =>
        ((await (await first.asCeo(`/api/tasks/${id}`)).json()) as { status: string }).status;
      const open = new Set(roots);
      // What a root that never reaches the CEO is waiting on: every task's status and each
      // replica's stalled tasks, then the tail of both replicas' logs.
      const stuck = async () => {
        const tasks = await rows<{ title: string; status: string }>(
          sql`select title, status from tasks order by created_at`,
        );
        const stalled = await Promise.all(
          cluster.replicas.map(async (replica) =>
            JSON.stringify(
              (
                (await (await replica.asCeo('/api/orchestrator/dispatcher')).json()) as {
                  stalled_tasks?: unknown;
                }
              ).stalled_tasks,
            ),
          ),
        );
        const tail = (text: string) => text.split('\n').slice(-40).join('\n');
        // What the open tasks' last runs printed, and their last audit rows.
        const runs = await rows<{
          title: string;
          slug: string;
          outcome: string | null;
          said: string | null;
        }>(sql`
          select t.title, g.slug, r.outcome,
            (select string_agg(c.text, '' order by c.seq) from agent_transcript_chunks c where c.run_id = r.id) as said
          from agent_runs r join tasks t on t.id = r.task_id join agents g on g.id = r.agent_id
          where t.status not in ('completed', 'cancelled') order by r.started_at desc limit 6`);
        const audit = await rows<{ title: string; action: string; actor_role: string | null }>(sql`
          select t.title, e.action, e.actor_role from task_events e join tasks t on t.id = e.task_id
          where t.status not in ('completed', 'cancelled') order by e.id desc limit 12`);
        return [
          'roots not at the CEO yet',
          ...tasks.map((task) => `${task.status.padEnd(24)} ${task.title}`),
          `stalled: ${stalled.join(' | ')}`,
          ...audit.map((row) => `audit: ${row.title} · ${row.action} by ${row.actor_role}`),
          ...runs.map(
            (run) => `run of ${run.slug} on ${run.title} (${run.outcome}): ${run.said?.slice(-1500)}`,
          ),
          tail(first.output()),
          tail(second.output()),
        ].join('\n');
      };
      await eventually(
        async () => {
          for (const [i, root] of roots.entries()) {
            if (!open.has(root) || (await status(root)) !== 'awaiting_ceo_approval') continue;
            const merged = await cluster.replicas[i % 2]!.asCeo(`/api/tasks/${root}/approve-and-merge`, {
              method: 'POST',
            });
            expect(merged.status).toBe(200);
            open.delete(root);
          }
          expect([...open], await stuck()).toEqual([]);
        },
        300_000,
        500,
      );

      // Once both have folded the merges, the kept rows are the record's own.
      const kept = await eventually(async () => {
        const now = await outcomes();
        const tasks = await rows<{ n: number }>(sql`select count(*)::int as n from tasks`);
        expect(now).toHaveLength(tasks[0]!.n);
        for (const root of roots) expect(now.find((row) => row.task_id === root)?.end).toBe('merged');
        return now;
      }, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a late batch on either replica
      expect(await outcomes()).toEqual(kept);
      await rebuildOutcomes(database.db);
      expect(await outcomes()).toEqual(kept);
      expect(kept.some((row) => row.qa_fails === 1 && row.qa_first_pass === false)).toBe(true);

      // The scorecard counts each developer task once, whichever replica answers.
      const developerTasks = kept.filter((row) => row.owner_role === 'developer' && row.end !== null).length;
      for (const replica of cluster.replicas) {
        const card = (await (await replica.asCeo('/api/workforce/scorecards?period=7d&by=role')).json()) as {
          groups: { key: string | null; tasks: number }[];
        };
        expect(card.groups.find((group) => group.key === 'developer')?.tasks).toBe(developerTasks);
      }
    }, 420_000);
  },
);
