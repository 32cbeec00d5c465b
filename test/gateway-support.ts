/**
 * Support for the gateway suites: the real app as `buildApp` makes it (the registry wires the
 * gateway over the workspaces module: real git), a bare repository on disk seeded with a first
 * commit on `main` that the suite's projects use as their remote (local forge), "the agent's work"
 * (files written into the agent's task worktree, then the `commit` do-tool), reads of the remote,
 * and a gateway client acting as a roster member (the headers an MCP tool server sends).
 */
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import type { GatewayEnvelope } from '../src/modules/gateway/index.js';
import { gatewayRouteOf } from '../src/modules/lifecycle/index.js';
import { projects } from '../src/modules/projects/schema.js';
import type { TaskView } from '../src/modules/tasks/index.js';
import { workspaceTask } from '../src/modules/workspaces/index.js';
import type { Clock } from '../src/platform/clock.js';
import { GitRunner, gitText, openRepo } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs, writeFiles } from '../src/platform/git/test-support.js';
import { startTestApp } from './support/app.js';

/** A valid task body (the tasks module's fixture), for the gateway tests next to the gateway code. */
export { taskBody } from '../src/modules/tasks/test-fixtures.js';

/** The files of the remote's first commit on `main`. */
export const SEED_FILES = { 'README.md': '# Shop\n', 'src/server.ts': 'export {};\n' };

/**
 * The real app on fresh stores and one bare remote for the whole suite (every project of the suite
 * points at it: task branches are named by task id, so projects never collide).
 */
export async function startGatewayApp(options: { clock?: Clock } = {}) {
  const dirs = tempDirs('gaffer-gateway-');
  const runner = new GitRunner({ home: join(dirs.make(), 'home') });
  const remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'), [
    { message: 'Initial commit', files: SEED_FILES },
  ]);
  const t = await startTestApp({ clock: options.clock });
  const bare = openRepo(runner, remote);
  let edits = 0;

  const taskView = async (id: string): Promise<TaskView> => {
    const response = await t.app.inject({ url: `/api/tasks/${id}`, headers: t.ceoHeaders });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as TaskView;
  };

  return {
    ...t,
    remote,

    /** A project on the suite's bare remote (local forge); answers its id. */
    async createProject(slug = `shop-${(++edits).toString(36)}-${Date.now().toString(36)}`) {
      const [row] = await t.platform.database.db
        .insert(projects)
        .values({ slug, name: slug, gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
        .returning({ id: projects.id });
      return row!.id;
    },

    taskView,

    /**
     * The agent's work: writes files (path → content; a path alone gets fresh content) into the
     * agent's worktree of the task, as an agent CLI does in its working directory. Answers the path.
     */
    async work(slug: string, taskId: string, files: Record<string, string> | readonly string[]) {
      const member = rosterMember(slug);
      const task = await taskView(taskId);
      const project = await t.modules.projects.service.find(task.project_id!);
      const prepared = await t.modules.workspaces.service.prepareTaskWorkspace({
        task: workspaceTask(task),
        project: project!,
        agent: { slug, role: member.role, team: member.team ?? null },
      });
      const contents = Array.isArray(files)
        ? Object.fromEntries(files.map((f) => [f, `// ${slug}: edit ${++edits}\n`]))
        : files;
      writeFiles(prepared.path, contents as Record<string, string>);
      return prepared.path;
    },

    /** Subjects of the commits on a branch of the remote, newest first. */
    async remoteLog(branch: string): Promise<string[]> {
      const out = await gitText(bare, ['log', '--format=%s', `refs/heads/${branch}`]);
      return out.split('\n').filter(Boolean);
    },

    /** The paths of the files at the tip of a branch of the remote. */
    async remoteFiles(branch: string): Promise<string[]> {
      const out = await gitText(bare, ['ls-tree', '-r', '--name-only', `refs/heads/${branch}`]);
      return out.split('\n').filter(Boolean);
    },

    /** The tip of a branch on the remote (null when the branch does not exist). */
    async remoteTip(branch: string): Promise<string | null> {
      return gitText(bare, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).catch(() => null);
    },

    async close() {
      await t.close();
      dirs.cleanup();
    },
  };
}

export type GatewayApp = Awaited<ReturnType<typeof startGatewayApp>>;

export type Envelope = GatewayEnvelope & {
  inner?: { error: string; message: string; missing?: string[] };
  data?: Record<string, unknown>;
};

/** A gateway client acting as one roster member (by slug), as the MCP tool server does. */
export function agentClient(t: GatewayApp, slug: string) {
  const member = rosterMember(slug);
  const headers = t.headersFor(member.id, member.role, member.team ?? '');
  const post = async (url: string, payload: object = {}): Promise<Envelope> => {
    const response: LightMyRequestResponse = await t.app.inject({ method: 'POST', url, headers, payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Envelope;
  };
  const route = gatewayRouteOf(member.role) ?? member.role;
  return {
    id: member.id,
    slug,
    role: member.role,
    headers,
    /** POST /api/v1/flow/{own route}/{verb}. */
    verb: (verb: string, payload: object = {}) => post(`/api/v1/flow/${route}/${verb}`, payload),
    /** POST /api/v1/flow/{route}/{verb} on any route. */
    flow: (anyRoute: string, verb: string, payload: object = {}) =>
      post(`/api/v1/flow/${anyRoute}/${verb}`, payload),
    /** POST /api/v1/do. */
    tool: (tool: string, payload: object = {}) => post('/api/v1/do', { tool, ...payload }),
    /**
     * Real work, then the `commit` tool: writes `files` into this agent's worktree of the task and
     * commits them, naming them to the tool; without `files`, one source file and a plain commit.
     */
    commitWork: async (task_id: string, message: string, files?: readonly string[]): Promise<Envelope> => {
      await t.work(slug, task_id, files ?? ['src/change.ts']);
      return post('/api/v1/do', { tool: 'commit', task_id, message, ...(files ? { files } : {}) });
    },
  };
}

/** The envelope's verb-specific data ({} when it has none). */
export const dataOf = (envelope: Envelope): Record<string, unknown> => envelope.data ?? {};

/** Asserts a success envelope and returns it; the failure shows the rejection. */
export function ok(envelope: Envelope): Envelope {
  expect(envelope.error, JSON.stringify(envelope)).toBeNull();
  expect(envelope.ok).toBe(true);
  return envelope;
}

/** Asserts a rejection of this flavor and returns it. */
export function rejected(envelope: Envelope, flavor: string): Envelope {
  expect(envelope.ok, JSON.stringify(envelope)).toBe(false);
  expect(envelope.error, JSON.stringify(envelope)).toBe(flavor);
  expect(envelope.message).toBeTruthy();
  expect(envelope.remediate).toBeTruthy();
  return envelope;
}

/** A developer plan that passes i_will_work_on's input gate (shared with the gateway benchmark). */
export { WORK_PLAN } from '../src/modules/gateway/test-fixtures.js';

/** A PM plan that passes i_will_plan's input gate. */
export const PM_PLAN = {
  plan: 'Split the health endpoint work between the backend cell and its documentation.',
  approach:
    'The backend cell owns the API server, so the whole change lands there: one developer adds the route and its test; QA verifies it against the criteria; the documenter updates the operations guide. No other cell is touched.',
  sub_tasks: [
    {
      title: 'Health endpoint',
      description: 'Add GET /health answering the version, unauthenticated, with an HTTP test covering it.',
    },
  ],
};
