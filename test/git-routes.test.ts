/**
 * /api/git over the real app, real git and a real bare remote per test: the branch-tip file read
 * (windows, ranges, the 2000-line cap, traversal and binary refused, 404s) and the branch cleanup
 * sweep (remote branches of finished tasks deleted — checked with `git ls-remote` on the bare
 * repository — open tasks' and protected branches kept, caps and cursor, roles, dry run).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import type { LadderRung } from '../src/modules/projects/index.js';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import { GitRunner, gitText, lsRemote, openRepo } from '../src/platform/git/index.js';
import { commitToRemote, seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { insertTask, type TaskFields } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

const BIG_LINES = 5000;
const BIG = `${Array.from({ length: BIG_LINES }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const SEED = {
  'README.md': '# Shop\n\nA small shop.\n',
  'src/big.txt': BIG,
  'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
};

let t: TestApp;
const dirs = tempDirs('gaffer-git-routes-');
let runner: GitRunner;
let made = 0;

beforeAll(async () => {
  runner = new GitRunner({ home: join(dirs.make(), 'home') });
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
  dirs.cleanup();
});

interface ProjectSetup {
  environments?: LadderRung[] | null;
  protectedBranches?: string[];
  assignedCell?: string | null;
  /** Branches made on the remote, each one commit ahead of main. */
  branches?: string[];
}

/** A bare remote seeded with SEED on main (plus `branches`) and a project on it (local forge). */
async function makeProject(setup: ProjectSetup = {}) {
  const remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'), [
    { message: 'Initial commit', files: SEED },
  ]);
  for (const branch of setup.branches ?? []) {
    await commitToRemote(
      runner,
      remote,
      branch,
      { [`work/${made}.txt`]: `${branch}\n` },
      `Work on ${branch}`,
      'main',
    );
  }
  const slug = `shop-${++made}`;
  const [row] = await t.platform.database.db
    .insert(projects)
    .values({
      slug,
      name: slug,
      gitUrl: remote,
      gitProvider: 'local',
      createdBy: 'ceo',
      environments: setup.environments ?? null,
      protectedBranches: setup.protectedBranches ?? [],
      assignedCell: setup.assignedCell ?? null,
    })
    .returning();
  const bare = openRepo(runner, remote);
  return {
    row: row!,
    slug,
    remote,
    /** Branch names on the remote, as `git ls-remote --heads` lists them. */
    async remoteBranches(): Promise<string[]> {
      const heads = await lsRemote(bare, { remote, heads: true });
      return heads.map((head) => head.ref.replace('refs/heads/', '')).sort();
    },
    async tip(branch: string): Promise<string> {
      const [head] = await lsRemote(bare, { remote, refs: [`refs/heads/${branch}`] });
      return head!.sha;
    },
  };
}

let clock = Date.parse('2024-01-01T00:00:00Z');

/** A task of the project, its updated_at one minute after the previous one's (so the order is known). */
function task(projectId: string, fields: TaskFields) {
  clock += 60_000;
  return insertTask(t.platform.database.db, { projectId, updatedAt: new Date(clock), ...fields });
}

const memberHeaders = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};

async function readFile(query: Record<string, string | number>, headers = t.ceoHeaders) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return t.app.inject({ url: `/api/git/file?${search}`, headers });
}

function cleanup(payload: Record<string, unknown>, headers = t.ceoHeaders) {
  return t.app.inject({ method: 'POST', url: '/api/git/branches/cleanup', headers, payload });
}

describe('GET /api/git/file', () => {
  it('answers a small file whole, to any authenticated caller, by slug or id', async () => {
    const p = await makeProject();
    const response = await readFile(
      { project: p.slug, branch: 'main', path: 'README.md' },
      memberHeaders('be-dev-1'),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      project: p.slug,
      project_id: p.row.id,
      branch: 'main',
      path: 'README.md',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      truncated: false,
      lines: ['# Shop', '', 'A small shop.'],
    });
    const byId = await readFile({ project: p.row.id, branch: 'main', path: './README.md' });
    expect(byId.json()).toMatchObject({ path: 'README.md', total_lines: 3 });
    expect(
      (await t.app.inject({ url: `/api/git/file?project=${p.slug}&branch=main&path=README.md` })).statusCode,
    ).toBe(401);
  });

  it('reads the tip of the branch asked for, not the default branch', async () => {
    const p = await makeProject({ branches: ['feature/readme'] });
    await commitToRemote(runner, p.remote, 'feature/readme', { 'README.md': '# Shop, renamed\n' }, 'Rename');
    const main = await readFile({ project: p.slug, branch: 'main', path: 'README.md' });
    const feature = await readFile({ project: p.slug, branch: 'feature/readme', path: 'README.md' });
    expect(main.json().lines[0]).toBe('# Shop');
    expect(feature.json().lines).toEqual(['# Shop, renamed']);
    const tip = async (branch: string) =>
      (await runner.text(['rev-parse', `refs/heads/${branch}`], { cwd: p.remote })).trim();
    expect(main.json().commit).toBe(await tip('main'));
    expect(feature.json().commit).toBe(await tip('feature/readme'));
  });

  it('answers the window around a line, and an explicit range', async () => {
    const p = await makeProject();
    const around = await readFile({
      project: p.slug,
      branch: 'main',
      path: 'src/big.txt',
      line: 1000,
      context: 2,
    });
    expect(around.json()).toMatchObject({
      start_line: 998,
      end_line: 1002,
      total_lines: BIG_LINES,
      truncated: false,
      lines: ['line 998', 'line 999', 'line 1000', 'line 1001', 'line 1002'],
    });
    const byDefault = (
      await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt', line: 3 })
    ).json();
    expect([byDefault.start_line, byDefault.end_line]).toEqual([1, 53]);
    const range = (
      await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt', start: 4990, end: 9000 })
    ).json();
    expect(range).toMatchObject({ start_line: 4990, end_line: 5000, truncated: false });
    expect(range.lines.at(-1)).toBe('line 5000');
  });

  it('never answers more than 2000 lines: truncated, and the next page goes on from end_line + 1', async () => {
    const p = await makeProject();
    const whole = (await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt' })).json();
    expect(whole).toMatchObject({ start_line: 1, end_line: 2000, total_lines: BIG_LINES, truncated: true });
    expect(whole.lines).toHaveLength(2000);
    const asked = (
      await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt', start: 1001, end: 4500 })
    ).json();
    expect(asked).toMatchObject({ start_line: 1001, end_line: 3000, truncated: true });
    expect(asked.lines[0]).toBe('line 1001');
    const next = (
      await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt', start: 3001, end: 4500 })
    ).json();
    expect(next).toMatchObject({ start_line: 3001, end_line: 4500, truncated: false });
    expect(next.lines).toHaveLength(1500);
  });

  it.each([
    ['../../etc/passwd', '".."'],
    ['src/../../outside', '".."'],
    ['/etc/passwd', 'absolute'],
    ['..\\..\\etc\\passwd', 'backslash'],
    ['src\\big.txt', 'backslash'],
    ['README.md\u0000.png', 'NUL'],
    ['C:/Windows/win.ini', 'drive'],
  ])('refuses the path %j with a 422 that says why', async (path, why) => {
    const p = await makeProject();
    const response = await readFile({ project: p.slug, branch: 'main', path });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.code).toBe('validation_failed');
    expect(response.json().error.message).toContain(why);
    expect(response.json().error.details).toEqual([
      { field: 'query.path', message: expect.stringContaining(why) },
    ]);
  });

  it('refuses a binary file and a branch name that is a revision expression', async () => {
    const p = await makeProject();
    const binary = await readFile({ project: p.slug, branch: 'main', path: 'assets/logo.png' });
    expect(binary.statusCode).toBe(422);
    expect(binary.json().error).toMatchObject({
      code: 'binary_file',
      details: { path: 'assets/logo.png', size: 12 },
    });
    for (const branch of ['main:README.md', 'main~1', '--upload-pack=x']) {
      const response = await readFile({ project: p.slug, branch, path: 'README.md' });
      expect(response.statusCode, branch).toBe(422);
      expect(response.json().error.details[0].field).toBe('query.branch');
    }
  });

  it('answers 404 for an unknown project, branch or file', async () => {
    const p = await makeProject();
    const project = await readFile({ project: 'no-such-shop', branch: 'main', path: 'README.md' });
    expect(project.statusCode).toBe(404);
    expect(project.json().error.message).toContain('no-such-shop');
    const file = await readFile({ project: p.slug, branch: 'main', path: 'src/missing.ts' });
    expect(file.statusCode).toBe(404);
    expect(file.json().error.message).toContain('src/missing.ts');
    const branch = await readFile({ project: p.slug, branch: 'no-such-branch', path: 'README.md' });
    expect(branch.statusCode).toBe(404);
    const folder = await readFile({ project: p.slug, branch: 'main', path: 'src' });
    expect(folder.statusCode).toBe(404);
  });

  it.each([
    [{ start: 9, end: 3 }, 'query.start', 'after end'],
    [{ line: 6000 }, 'query.line', 'past the end of the file (5000 lines)'],
    [{ start: 5001 }, 'query.start', 'past the end'],
    [{ line: 3, start: 1 }, 'query.line', 'not both'],
    [{ context: 4 }, 'query.context', 'give line too'],
    [{ line: 0 }, 'query.line', ''],
    [{ context: 5000, line: 1 }, 'query.context', ''],
  ])('refuses the window %j with a 422', async (window, field, message) => {
    const p = await makeProject();
    const response = await readFile({ project: p.slug, branch: 'main', path: 'src/big.txt', ...window });
    expect(response.statusCode, response.body).toBe(422);
    const details = response.json().error.details as Array<{ field: string; message: string }>;
    expect(details.find((d) => d.field === field)?.message, response.body).toContain(message);
  });
});

describe('POST /api/git/branches/cleanup', () => {
  it('deletes the remote branch of completed and cancelled tasks and keeps open tasks’ branches', async () => {
    const p = await makeProject({ branches: ['task/done', 'task/dropped', 'task/open'] });
    const done = await task(p.row.id, { status: 'completed', branchName: 'task/done' });
    const dropped = await task(p.row.id, { status: 'cancelled', branchName: 'task/dropped' });
    await task(p.row.id, { status: 'in_progress', branchName: 'task/open' });
    await task(p.row.id, { status: 'completed', branchName: null });

    const response = await cleanup({ project: p.slug });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      dry_run: false,
      deleted: [
        { task_id: done.id, branch: 'task/done', worktrees_removed: 0 },
        { task_id: dropped.id, branch: 'task/dropped', worktrees_removed: 0 },
      ],
      skipped: [],
      next_cursor: null,
    });
    expect(await p.remoteBranches()).toEqual(['main', 'task/open']);

    // Again: the branches are gone already, which still counts as deleted.
    const again = await cleanup({ project: p.slug });
    expect(again.json().deleted.map((d: { branch: string }) => d.branch)).toEqual([
      'task/done',
      'task/dropped',
    ]);
    expect(await p.remoteBranches()).toEqual(['main', 'task/open']);
  });

  it('removes the agents’ worktrees and local branches of the task too', async () => {
    const p = await makeProject({ branches: ['task/local'] });
    const finished = await task(p.row.id, { status: 'completed', branchName: 'task/local' });
    const workspace = await t.modules.workspaces.service.prepareTaskWorkspace({
      task: finished,
      project: p.row,
      agent: { slug: 'be-dev-1', role: 'developer', team: 'backend' },
    });
    expect(existsSync(workspace.path)).toBe(true);
    const response = await cleanup({ project: p.slug });
    expect(response.json().deleted).toEqual([
      { task_id: finished.id, branch: 'task/local', worktrees_removed: 1 },
    ]);
    expect(existsSync(workspace.path)).toBe(false);
    const clone = openRepo(runner, workspace.clonePath);
    expect((await gitText(clone, ['branch', '--list', 'task/local'])).trim()).toBe('');
  });

  it('never deletes the default branch, a ladder rung, a protected branch, or a branch open work builds on', async () => {
    const p = await makeProject({
      environments: [
        { name: 'dev', branch: 'develop' },
        { name: 'prod', branch: 'main' },
      ],
      protectedBranches: ['release'],
      branches: ['develop', 'release', 'task/shared', 'task/parent'],
    });
    const onMain = await task(p.row.id, { status: 'completed', branchName: 'main' });
    const onRung = await task(p.row.id, { status: 'completed', branchName: 'develop' });
    const onProtected = await task(p.row.id, { status: 'cancelled', branchName: 'release' });
    const shared = await task(p.row.id, { status: 'completed', branchName: 'task/shared' });
    await task(p.row.id, { status: 'in_progress', branchName: 'task/shared' });
    const parent = await task(p.row.id, { status: 'completed', branchName: 'task/parent' });
    await task(p.row.id, { status: 'pending', branchName: null, parentTaskId: parent.id, depth: 1 });

    const response = await cleanup({ project: p.slug });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().deleted).toEqual([]);
    expect(response.json().skipped).toEqual([
      { task_id: onMain.id, branch: 'main', reason: 'protected_branch' },
      { task_id: onRung.id, branch: 'develop', reason: 'protected_branch' },
      { task_id: onProtected.id, branch: 'release', reason: 'protected_branch' },
      { task_id: shared.id, branch: 'task/shared', reason: 'branch_in_use' },
      { task_id: parent.id, branch: 'task/parent', reason: 'open_child_task' },
    ]);
    expect(await p.remoteBranches()).toEqual(['develop', 'main', 'release', 'task/parent', 'task/shared']);
  });

  it('examines at most `limit` tasks per call, oldest first, and resumes with the cursor', async () => {
    const branches = ['task/1', 'task/2', 'task/3', 'task/4', 'task/5'];
    const p = await makeProject({ branches });
    const finished = [];
    for (const branch of branches)
      finished.push(await task(p.row.id, { status: 'completed', branchName: branch }));

    const seen: string[] = [];
    let cursor: string | undefined;
    const remaining: string[][] = [];
    for (let call = 0; call < 3; call++) {
      const response = await cleanup({ project: p.slug, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.deleted.length).toBeLessThanOrEqual(2);
      seen.push(...body.deleted.map((d: { task_id: string }) => d.task_id));
      remaining.push(await p.remoteBranches());
      cursor = body.next_cursor ?? undefined;
      if (call < 2) expect(cursor).toEqual(expect.any(String));
      else expect(body.next_cursor).toBeNull();
    }
    expect(seen).toEqual(finished.map((f) => f.id));
    expect(remaining).toEqual([['main', 'task/3', 'task/4', 'task/5'], ['main', 'task/5'], ['main']]);

    const forged = await cleanup({ project: p.slug, cursor: 'bm90LWEtY3Vyc29y' });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().error.details[0].field).toBe('body.cursor');
    for (const limit of [0, 201]) expect((await cleanup({ project: p.slug, limit })).statusCode).toBe(422);
  });

  it('orders by updated_at: tasks finished after the sweep began come in later pages, ties by id', async () => {
    const p = await makeProject({ branches: ['task/early-1', 'task/early-2', 'task/late'] });
    await task(p.row.id, { status: 'completed', branchName: 'task/early-1' });
    const early = await task(p.row.id, { status: 'completed', branchName: 'task/early-2' });
    const late = await task(p.row.id, { status: 'in_progress', branchName: 'task/late' });
    const first = (await cleanup({ project: p.slug, limit: 1 })).json();
    expect(first.deleted.map((d: { branch: string }) => d.branch)).toEqual(['task/early-1']);
    // Both rows get the very same updated_at, with microseconds (a JS Date holds only milliseconds).
    await t.platform.database.db
      .update(tasks)
      .set({ status: 'completed', updatedAt: sql`'2030-01-01T00:00:00.123456Z'::timestamptz` })
      .where(inArray(tasks.id, [early.id, late.id]));
    const pages: string[][] = [];
    let cursor: string | null = first.next_cursor;
    while (cursor && pages.length < 5) {
      const page = (await cleanup({ project: p.slug, limit: 1, cursor })).json();
      pages.push(page.deleted.map((d: { branch: string }) => d.branch));
      cursor = page.next_cursor;
    }
    expect(pages.flat().sort()).toEqual(['task/early-2', 'task/late']);
    expect(pages).toHaveLength(2);
    expect(await p.remoteBranches()).toEqual(['main']);
  });

  it('dry run lists what would go and deletes nothing', async () => {
    const p = await makeProject({ branches: ['task/keep-me'] });
    const finished = await task(p.row.id, { status: 'completed', branchName: 'task/keep-me' });
    const tip = await p.tip('task/keep-me');
    const response = await cleanup({ project: p.slug, dry_run: true });
    expect(response.json()).toEqual({
      dry_run: true,
      deleted: [{ task_id: finished.id, branch: 'task/keep-me', worktrees_removed: 0 }],
      skipped: [],
      next_cursor: null,
    });
    expect(await p.remoteBranches()).toEqual(['main', 'task/keep-me']);
    expect(await p.tip('task/keep-me')).toBe(tip);
  });

  it('is for the CEO and PMs only; a cell PM sweeps its own cell’s tasks', async () => {
    const p = await makeProject({ assignedCell: 'backend', branches: ['task/be', 'task/fe'] });
    const backend = await task(p.row.id, { status: 'completed', branchName: 'task/be', team: 'backend' });
    const frontend = await task(p.row.id, { status: 'completed', branchName: 'task/fe', team: 'frontend' });

    const developer = await cleanup({ project: p.slug }, memberHeaders('be-dev-1'));
    expect(developer.statusCode).toBe(403);
    expect(developer.json().error.code).toBe('forbidden');
    expect((await cleanup({ project: p.slug }, memberHeaders('be-qa'))).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/git/branches/cleanup', payload: {} })).statusCode,
    ).toBe(401);

    const otherCell = await cleanup({ project: p.slug }, memberHeaders('fe-pm'));
    expect(otherCell.statusCode).toBe(403);
    expect(otherCell.json().error.message).toContain('backend cell');
    expect(await p.remoteBranches()).toEqual(['main', 'task/be', 'task/fe']);

    const ownCell = await cleanup({ project: p.slug }, memberHeaders('be-pm'));
    expect(ownCell.statusCode, ownCell.body).toBe(200);
    expect(ownCell.json().deleted.map((d: { task_id: string }) => d.task_id)).toEqual([backend.id]);
    expect(await p.remoteBranches()).toEqual(['main', 'task/fe']);

    const mainPm = await cleanup({ project: p.slug }, memberHeaders('main-pm'));
    expect(mainPm.json().deleted.map((d: { task_id: string }) => d.task_id)).toEqual([
      backend.id,
      frontend.id,
    ]);
    expect(await p.remoteBranches()).toEqual(['main']);

    expect((await cleanup({ project: 'no-such-shop' })).statusCode).toBe(404);
  });
});
