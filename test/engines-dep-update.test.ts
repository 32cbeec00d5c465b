/**
 * The dependency-update bot through the real app and its board-program runner, with real git (a
 * bare remote per project) and real commands (a node tool the project's command runs): changed
 * lockfiles → one task, nothing while it is open, unchanged / failing / timed out → nothing, the
 * origin and the project's clones byte-identical, explicit paths, inference per package manager,
 * caps, no shell and a scrubbed environment, a kill pause aborting a probe, and flag off → no clone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { hashTree, processAlive, recordedRuns, writeDepTool } from './support/dep-update-fixture.js';
import { startAppWithFlags } from './support/engines.js';
import { pause } from './support/ws-client.js';

const WAIT = { timeout: 20_000, interval: 25 };
const LOCK_V1 = '{\n  "name": "shop",\n  "lockfileVersion": 3,\n  "packages": {}\n}\n';
const NPM_REPO = {
  'README.md': '# Shop\n',
  'package.json': '{"name":"shop"}\n',
  'package-lock.json': LOCK_V1,
};

interface Cycle {
  outcome: string;
  items_examined: number;
  tasks_opened: number;
  skipped_by_cap: number;
  errors: number;
  error_messages: string[];
  opened_task_ids: string[];
}

interface TaskView {
  id: string;
  title: string;
  description: string;
  status: string;
  team: string;
  source: string;
  project_id: string | null;
  assigned_to: string | null;
  confirmed_by_human: boolean;
  acceptance_criteria: unknown[];
}

const dirs = tempDirs('gaffer-dep-update-test-');
const git = new GitRunner({ home: dirs.make() });
const tool = writeDepTool(dirs.make());
const scratch = dirs.make();
let serial = 0;
afterAll(() => dirs.cleanup());

/** Helpers bound to one app. */
function driver(app: () => TestApp) {
  const created: string[] = [];
  return {
    created,
    /** A fresh opted-in project on a fresh bare remote holding `files`. */
    async project(options: {
      command: string;
      files?: Record<string, string>;
      paths?: string;
      token?: string;
    }) {
      serial += 1;
      const slug = `deps-${serial}`;
      const remote = await seedBareRemote(git, join(dirs.make(), `${slug}.git`), [
        { message: 'Initial commit', files: options.files ?? NPM_REPO },
      ]);
      const response = await app().app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: app().ceoHeaders,
        payload: {
          slug,
          name: `Deps ${serial}`,
          git_url: remote,
          dep_update_command: options.command,
          ...(options.paths ? { dep_update_paths: options.paths } : {}),
          ...(options.token ? { git_token: options.token } : {}),
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      created.push(slug);
      return { slug, remote, id: json<{ id: string }>(response).id };
    },
    async runNow(): Promise<{ status: number; body: Cycle }> {
      const response = await app().app.inject({
        method: 'POST',
        url: '/api/board-programs/dep_update/run-now',
        headers: app().ceoHeaders,
      });
      return { status: response.statusCode, body: json<Cycle>(response) };
    },
    async cycle(): Promise<Cycle> {
      const { status, body } = await this.runNow();
      expect(status, JSON.stringify(body)).toBe(200);
      return body;
    },
    async openTasks(): Promise<TaskView[]> {
      const response = await app().app.inject({
        method: 'GET',
        url: '/api/tasks?source=dep_update&limit=200',
        headers: app().ceoHeaders,
      });
      return json<{ tasks: TaskView[] }>(response).tasks.filter((task) => task.status !== 'cancelled');
    },
    /** What is left under `<dataDir>/tmp/dep-update` (null: the folder does not exist). */
    probeDirs(): string[] | null {
      const root = join(app().platform.config.dataDir, 'tmp', 'dep-update');
      return existsSync(root) ? readdirSync(root) : null;
    },
    async patch(slug: string, payload: Record<string, unknown>) {
      const response = await app().app.inject({
        method: 'PATCH',
        url: `/api/projects/${slug}`,
        headers: app().ceoHeaders,
        payload,
      });
      expect(response.statusCode, response.body).toBe(200);
    },
  };
}

const cmd = (...ops: string[]) => `${tool} ${ops.join(' + ')}`;

describe('dependency-update bot', () => {
  let t: TestApp;
  const d = driver(() => t);
  const config: Partial<Config> = {
    // The bot's own rules, with a tool that records each run to a file of the test's; the
    // command's sandbox (no such writes) is proven by the sandbox attack suite.
    agentSandbox: 'off',
    depUpdateMaxPerCycle: 10,
    depUpdateMaxOpenTasks: 3,
    depUpdateTimeoutSeconds: 60,
  };

  beforeAll(async () => {
    t = await startAppWithFlags(['dep_update'], { config });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/engines', headers: t.ceoHeaders });
    for (const task of await d.openTasks()) {
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/tasks/${task.id}/cancel`,
        headers: t.ceoHeaders,
        payload: { reason: 'test cleanup' },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }
    // Each test sees only its own projects.
    for (const slug of d.created.splice(0)) await d.patch(slug, { is_active: false });
  });

  it('opens one update task when a lockfile changes, then probes nothing while it is open', async () => {
    const runs = join(scratch, 'runs-changed.jsonl');
    const shop = await d.project({
      command: cmd(`record ${runs}`, `write package-lock.json '{"lockfileVersion":3,"bumped":true}'`),
    });
    const project = await t.modules.projects.service.get(shop.slug);
    const agent = { slug: 'backend-dev-1', role: 'developer' as const, team: 'backend' };
    const clone = await t.modules.workspaces.service.agentClonePath(project, agent);
    const workspaces = join(t.platform.config.dataDir, 'workspaces');
    const before = { origin: hashTree(shop.remote), workspaces: hashTree(workspaces) };

    const first = await d.cycle();
    expect(first).toMatchObject({ outcome: 'completed', items_examined: 1, tasks_opened: 1, errors: 0 });
    const [task] = await d.openTasks();
    expect(task).toMatchObject({
      title: `Update dependencies on ${shop.slug}`,
      status: 'pending',
      team: 'main_pm',
      source: 'dep_update',
      project_id: shop.id,
      confirmed_by_human: true,
    });
    expect(first.opened_task_ids).toEqual([task!.id]);
    expect(task!.assigned_to).toBe((await t.modules.agents.service.mainPm())!.id);
    expect(task!.description).toContain('- package-lock.json (npm): +1 -5');
    expect(task!.description).toContain('1 lockfile changed, 1 insertions(+), 5 deletions(-)');
    expect(task!.acceptance_criteria).toHaveLength(2);
    expect(recordedRuns(runs)).toHaveLength(1);
    expect(recordedRuns(runs)[0]!.cwd.startsWith(join(t.platform.config.dataDir, 'tmp', 'dep-update'))).toBe(
      true,
    );

    // Read-only: the origin, the mirror and the agent's clone are byte-identical; the probe is gone.
    expect(hashTree(shop.remote)).toBe(before.origin);
    expect(hashTree(workspaces)).toBe(before.workspaces);
    expect(readFileSync(join(clone, 'package-lock.json'), 'utf8')).toBe(LOCK_V1);
    expect(d.probeDirs()).toEqual([]);

    const second = await d.cycle();
    expect(second).toMatchObject({ items_examined: 1, tasks_opened: 0, errors: 0 });
    expect(await d.openTasks()).toHaveLength(1);
    expect(recordedRuns(runs)).toHaveLength(1); // the open task stands for it: no probe at all

    const history = await t.app.inject({
      method: 'GET',
      url: '/api/board-programs/dep_update/cycles',
      headers: t.ceoHeaders,
    });
    const cycles = json<{ cycles: Cycle[] }>(history).cycles;
    expect(cycles.slice(0, 2).map((c) => c.tasks_opened)).toEqual([0, 1]);
  });

  it('opens nothing when the lockfiles stay the same or only other files change', async () => {
    await d.project({ command: cmd(`record ${join(scratch, 'noop.jsonl')}`) });
    await d.project({ command: cmd('write README.md changed', 'write src/new.ts x') });
    const result = await d.cycle();
    expect(result).toMatchObject({ items_examined: 2, tasks_opened: 0, errors: 0 });
    expect(recordedRuns(join(scratch, 'noop.jsonl'))).toHaveLength(1);
    expect(await d.openTasks()).toHaveLength(0);
    expect(d.probeDirs()).toEqual([]);
  });

  it('opens nothing for a failing command or one that cannot be split, and says why', async () => {
    const failing = await d.project({ command: cmd('write package-lock.json changed', 'fail') });
    const broken = await d.project({ command: `${tool} write "package-lock.json` });
    const result = await d.cycle();
    expect(result).toMatchObject({ tasks_opened: 0, errors: 2 });
    const messages = result.error_messages.join('\n');
    expect(messages).toContain(`${failing.slug}: the command exited with code 3: registry unreachable`);
    expect(messages).toContain(`${broken.slug}: dep_update_command cannot be split into words`);
    expect(await d.openTasks()).toHaveLength(0);
    expect(d.probeDirs()).toEqual([]);
  });

  it('watches only the explicit paths when they are set', async () => {
    const custom = await d.project({
      command: cmd('write package-lock.json changed'),
      paths: 'deps/lock.json',
      files: { ...NPM_REPO, 'deps/lock.json': '{}\n' },
    });
    expect(await d.cycle()).toMatchObject({ tasks_opened: 0, errors: 0 });

    await d.patch(custom.slug, { dep_update_command: cmd('write deps/lock.json {"v":2}') });
    expect(await d.cycle()).toMatchObject({ tasks_opened: 1, errors: 0 });
    const [task] = await d.openTasks();
    expect(task!.description).toContain('- deps/lock.json: +1 -1');
    expect(task!.description).not.toContain('package-lock.json');
  });

  it('infers the lockfiles of each package manager from the clone', async () => {
    const cargo = await d.project({
      command: cmd('write Cargo.lock version=4'),
      files: { 'Cargo.toml': '[package]\n', 'Cargo.lock': 'version = 3\n', 'web/pnpm-lock.yaml': 'v: 9\n' },
    });
    const pnpm = await d.project({
      command: cmd('write web/pnpm-lock.yaml v:10', 'write web/yarn.lock new'),
      files: { 'README.md': '#\n', 'web/pnpm-lock.yaml': 'v: 9\n' },
    });
    const runs = join(scratch, 'nolock.jsonl');
    const plain = await d.project({ command: cmd(`record ${runs}`), files: { 'package.json': '{}\n' } });

    const result = await d.cycle();
    expect(result).toMatchObject({ items_examined: 3, tasks_opened: 2, errors: 1 });
    expect(result.error_messages[0]).toContain(`${plain.slug}: no lockfile found in the clone`);
    expect(recordedRuns(runs)).toHaveLength(0);
    const byProject = new Map((await d.openTasks()).map((task) => [task.project_id, task.description]));
    expect(byProject.get(cargo.id)).toContain('- Cargo.lock (cargo): +1 -1');
    // A lockfile the repository does not track (yarn.lock here) is not watched.
    expect(byProject.get(pnpm.id)).toContain('- web/pnpm-lock.yaml (pnpm): +1 -1');
    expect(byProject.get(pnpm.id)).not.toContain('yarn.lock (yarn)');
  });

  it('passes the command to no shell and gives it a scrubbed environment', async () => {
    const runs = join(scratch, 'literal.jsonl');
    process.env.GAFFER_DEP_UPDATE_TEST_LEAK = 'must-not-leak';
    try {
      await d.project({
        command: `${tool} record ${runs} ';' touch pwned $(touch pwned2) '$HOME' "a b" && echo hi`,
        token: 'ghp_dep_update_token_never_seen',
      });
      expect(await d.cycle()).toMatchObject({ tasks_opened: 0, errors: 0 });
    } finally {
      delete process.env.GAFFER_DEP_UPDATE_TEST_LEAK;
    }
    const [run] = recordedRuns(runs);
    expect(run!.argv).toEqual([
      ';',
      'touch',
      'pwned',
      '$(touch',
      'pwned2)',
      '$HOME',
      'a b',
      '&&',
      'echo',
      'hi',
    ]);
    expect(Object.keys(run!.env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR']);
    expect(JSON.stringify(run!.env)).not.toContain('ghp_dep_update_token');
    expect(run!.env.HOME!.startsWith(join(t.platform.config.dataDir, 'tmp', 'dep-update'))).toBe(true);
  });

  it('is aborted in flight by a kill pause: the command is killed and the clone removed', async () => {
    const pids = join(scratch, 'hang-pids.json');
    await d.project({ command: cmd(`hang ${pids}`) });
    const inFlight = d.runNow();
    await expect.poll(() => existsSync(pids) && readFileSync(pids, 'utf8').length > 0, WAIT).toBe(true);
    const [leader, grandchild] = JSON.parse(readFileSync(pids, 'utf8')) as [number, number];
    expect(d.probeDirs()).toHaveLength(1);
    const kill = await t.app.inject({
      method: 'POST',
      url: '/api/maintenance-pause/engines',
      headers: t.ceoHeaders,
      payload: { mode: 'kill', reason: 'stop the probe' },
    });
    expect(kill.statusCode, kill.body).toBe(200);
    const aborted = await inFlight;
    expect(aborted.body).toMatchObject({ outcome: 'aborted', tasks_opened: 0 });
    expect(processAlive(leader)).toBe(false);
    expect(processAlive(grandchild)).toBe(false);
    expect(d.probeDirs()).toEqual([]);
    expect(await d.openTasks()).toHaveLength(0);
  });
});

describe('dependency-update bot caps and timeout', () => {
  it('keeps to the per-cycle cap and the rolling cap of open tasks per repository', async () => {
    let capped: TestApp | undefined;
    try {
      capped = await startAppWithFlags(['dep_update'], {
        config: { agentSandbox: 'off', depUpdateMaxPerCycle: 1, depUpdateMaxOpenTasks: 2 },
      });
      const d = driver(() => capped!);
      const first = await d.project({ command: cmd('write package-lock.json a') });
      // Two more commands on the same repository (cell-projects of one monorepo).
      for (const version of ['b', 'c']) {
        const response = await capped.app.inject({
          method: 'POST',
          url: '/api/projects',
          headers: capped.ceoHeaders,
          payload: {
            slug: `${first.slug}-${version}`,
            name: version,
            git_url: `${first.remote}/`,
            dep_update_command: cmd(`write package-lock.json ${version}`),
          },
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      expect(await d.cycle()).toMatchObject({ items_examined: 3, tasks_opened: 1, skipped_by_cap: 2 });
      expect(await d.cycle()).toMatchObject({ tasks_opened: 1, skipped_by_cap: 1 });
      // Two are open for the repository now: the third command waits for one of them to close.
      expect(await d.cycle()).toMatchObject({ tasks_opened: 0, skipped_by_cap: 1 });
      expect(await d.openTasks()).toHaveLength(2);
    } finally {
      await capped?.close();
    }
  });

  it('kills a command that outlives its timeout and opens nothing', async () => {
    let timed: TestApp | undefined;
    try {
      timed = await startAppWithFlags(['dep_update'], {
        config: { agentSandbox: 'off', depUpdateTimeoutSeconds: 1 },
      });
      const d = driver(() => timed!);
      const pids = join(scratch, 'timeout-pids.json');
      const slow = await d.project({ command: cmd('write package-lock.json changed', `hang ${pids}`) });
      const result = await d.cycle();
      expect(result).toMatchObject({ outcome: 'completed', tasks_opened: 0, errors: 1 });
      expect(result.error_messages[0]).toContain(
        `${slow.slug}: the command timed out after 1 s and was killed`,
      );
      const [leader, grandchild] = JSON.parse(readFileSync(pids, 'utf8')) as [number, number];
      expect(processAlive(leader)).toBe(false);
      expect(processAlive(grandchild)).toBe(false);
      expect(d.probeDirs()).toEqual([]);
      expect(await d.openTasks()).toHaveLength(0);
    } finally {
      await timed?.close();
    }
  });
});

describe('dependency-update bot with its flag off', () => {
  it('makes no clone at all, even when its interval comes round', async () => {
    const t = await startTestApp({ config: { depUpdateIntervalSeconds: 1 } });
    try {
      const d = driver(() => t);
      const runs = join(scratch, 'dormant.jsonl');
      await d.project({ command: cmd(`record ${runs}`, 'write package-lock.json changed') });
      const refused = await d.runNow();
      expect(refused.status).toBe(409);
      await pause(2_500);
      expect(d.probeDirs() ?? []).toEqual([]);
      expect(recordedRuns(runs)).toHaveLength(0);
      expect(await d.openTasks()).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
