/**
 * Shared setup of the git-workspaces suites: one test database per file, a recording git runner
 * and temp directories per test, a project whose remote is a bare repository (or a loopback
 * server), task rows as the gateway would record them, and the agents that act.
 */
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import {
  type WorkspaceAgent,
  type WorkspaceProject,
  WorkspacesService,
  type WorkspaceTask,
} from '../src/modules/workspaces/index.js';
import { type GitRunner, type GitSpawn, openRepo, resolveRef } from '../src/platform/git/index.js';
import { recordingRunner, tempDirs } from '../src/platform/git/test-support.js';
import { insertTask, type TaskRow } from './fixtures-task-rows.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

export const beDev: WorkspaceAgent = { slug: 'be-dev-1', role: 'developer', team: 'backend' };
export const beQa: WorkspaceAgent = { slug: 'be-qa', role: 'qa', team: 'backend' };
export const bePm: WorkspaceAgent = { slug: 'be-pm', role: 'cell_pm', team: 'backend' };
export const mainPm: WorkspaceAgent = { slug: 'main-pm', role: 'main_pm', team: 'main_pm' };
export const ceo = { role: 'ceo' as const, team: null };

export const short = (id: string) => id.slice(0, 8);

/** Registers the hooks; the returned object's fields are fresh in every test. */
export function useWorkspaceFixture() {
  const dirs = tempDirs('gaffer-ws-test-');
  let stores: TestStores;
  let slugs = 0;
  const fx = {
    dirs,
    platform: undefined as unknown as TestPlatform,
    runner: undefined as unknown as GitRunner,
    spawns: [] as GitSpawn[],
    /** The project slug of the current test. */
    slug: '',

    async insertProject(gitUrl: string, fields: Partial<typeof projects.$inferInsert> = {}) {
      const [row] = await fx.platform.database.db
        .insert(projects)
        .values({ slug: fx.slug, name: 'Shop', gitUrl, gitProvider: 'local', createdBy: 'ceo', ...fields })
        .returning();
      return row! satisfies WorkspaceProject;
    },

    service(token: string | null = null) {
      return new WorkspacesService({
        db: fx.platform.database.db,
        clock: fx.platform.clock,
        dataDir: fx.platform.config.dataDir,
        tokenFor: async () => token,
        runner: fx.runner,
      });
    },

    /** Records what the gateway records at a claim or a PR: the branch, the PR number, the status. */
    async update(
      task: Pick<WorkspaceTask, 'id'>,
      fields: Partial<typeof tasks.$inferInsert>,
    ): Promise<TaskRow> {
      const [row] = await fx.platform.database.db
        .update(tasks)
        .set(fields)
        .where(eq(tasks.id, task.id))
        .returning();
      return row!;
    },

    insertTask(fields: Parameters<typeof insertTask>[1]) {
      return insertTask(fx.platform.database.db, fields);
    },

    /** A main-PM root, a backend cell task under it and a developer leaf under that. */
    async chain(projectId: string) {
      const root = await fx.insertTask({
        team: 'main_pm',
        taskType: 'planning',
        projectId,
        title: 'Rate limiting',
      });
      const cell = await fx.insertTask({
        team: 'backend',
        taskType: 'planning',
        projectId,
        parentTaskId: root.id,
        depth: 1,
        title: 'Backend rate limiting',
      });
      const leaf = await fx.insertTask({
        team: 'backend',
        projectId,
        parentTaskId: cell.id,
        depth: 2,
        title: 'Add the limiter middleware',
        description: 'Five login attempts a minute per address.',
      });
      return { root, cell, leaf };
    },

    /** The sha of `branch` in a bare repository, or null. */
    tip(bare: string, branch: string) {
      return resolveRef(openRepo(fx.runner, bare), `refs/heads/${branch}`);
    },

    workspacesDir(...parts: string[]) {
      return join(fx.platform.config.dataDir, 'workspaces', ...parts);
    },
  };
  beforeAll(async () => {
    stores = await createTestStores();
    fx.platform = await stores.platform();
  });
  afterAll(async () => {
    await stores.dispose();
  });
  beforeEach(() => {
    ({ runner: fx.runner, spawns: fx.spawns } = recordingRunner(join(dirs.make(), 'home')));
    fx.slug = `shop-${++slugs}`;
  });
  afterEach(() => dirs.cleanup());
  return fx;
}
