/**
 * GET /api/tasks/{id}/changes (and `/changes/file`) over the real app and real git, on a local
 * project and on GitHub and Gitea projects served by the fake forge (real bare repositories behind
 * git smart HTTP and the token): files added, modified, deleted, renamed and binary with their hunks
 * and both line numbers, the task's own commits (not the base's), a conflict reported as not
 * mergeable with its paths, the caps and the one-file follow-up, a cached answer for unchanged tips
 * and a new one for a new commit, a child task diffed against its parent's branch, and the 4xx cases.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { projects } from '../src/modules/projects/schema.js';
import { fakeClock } from '../src/platform/clock.js';
import { cloneRepo, GitRunner, gitText, openRepo, push } from '../src/platform/git/index.js';
import { commitToRemote, seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';

const BIG_LINES = 3_500;
const SEED = {
  'README.md': '# Shop\n\nA small shop.\n',
  'src/cart.ts': 'export const cart = [];\nexport const total = 0;\n',
  'src/old-name.ts': 'export const moved = true;\n',
  'docs/gone.md': 'Remove me\nplease\n',
  'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
};

let t: TestApp;
let forge: FakeForge;
/** The app's clock, moved by hand: a cached answer keeps the time it was computed at. */
const clock = fakeClock(new Date());
const dirs = tempDirs('gaffer-task-changes-');
let runner: GitRunner;
let made = 0;

beforeAll(async () => {
  runner = new GitRunner({ home: join(dirs.make(), 'home') });
  [t, forge] = await Promise.all([startTestApp({ clock }), startFakeForge()]);
});

afterAll(async () => {
  await t?.close();
  await forge?.close();
  dirs.cleanup();
});

type Forge = 'local' | 'github' | 'gitea';

/** A project on a fresh bare remote seeded with SEED; on GitHub or Gitea it is served by the fake forge. */
async function project(kind: Forge = 'local') {
  made += 1;
  const slug = `changes-${made}`;
  const remote = await seedBareRemote(runner, join(dirs.make(), `${slug}.git`), [
    { message: 'Seed', files: SEED },
  ]);
  if (kind === 'local') {
    const [row] = await t.platform.database.db
      .insert(projects)
      .values({ slug, name: slug, gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
      .returning({ id: projects.id });
    return { id: row!.id, remote };
  }
  forge.serveGit('acme', slug, remote);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: t.ceoHeaders,
    payload: {
      slug,
      name: slug,
      git_url: forge.gitUrl('acme', slug),
      git_provider: kind,
      forge_api_url: kind === 'github' ? forge.githubApiUrl : forge.giteaApiUrl,
      git_token: forge.token,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: (response.json() as { id: string }).id, remote };
}

/** Runs `edit` in a clone of `remote` on `branch` (cut from `from`), commits it as `message` and pushes. */
async function commitOn(
  remote: string,
  branch: string,
  message: string,
  edit: (git: (...args: string[]) => Promise<string>, dir: string) => Promise<void>,
  from = 'main',
) {
  const work = mkdtempSync(join(tmpdir(), 'gaffer-changes-work-'));
  try {
    const repo = await cloneRepo(runner, { url: remote, dir: join(work, 'w'), branch: from });
    const git = (...args: string[]) => gitText(repo, args);
    if (from !== branch) await git('checkout', '-q', '-b', branch);
    await edit(git, repo.dir);
    await git('add', '-A');
    await git('-c', 'user.name=Dev One', '-c', 'user.email=dev@example.test', 'commit', '-q', '-m', message);
    await push(repo, { refspecs: [`HEAD:refs/heads/${branch}`] });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The developer's usual change: one file changed, one added, one deleted, one renamed, the binary replaced. */
async function developerChange(remote: string, branch: string) {
  await commitOn(remote, branch, 'feat: cart totals', async (git, dir) => {
    writeFileSync(
      join(dir, 'src/cart.ts'),
      'export const cart = [];\nexport const total = 42;\nexport const tax = 0.2;\n',
    );
    writeFileSync(join(dir, 'src/checkout.ts'), "import { cart } from './cart';\n");
    writeFileSync(join(dir, 'assets/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x02]));
    await git('rm', '-q', 'docs/gone.md');
    await git('mv', 'src/old-name.ts', 'src/new-name.ts');
  });
}

const get = (url: string, headers = t.ceoHeaders) => t.app.inject({ method: 'GET', url, headers });

interface Change {
  base: { branch: string; sha: string };
  head: { branch: string; sha: string };
  merge_base: string | null;
  mergeable: boolean;
  conflicts: string[];
  files: {
    path: string;
    previous_path: string | null;
    status: string;
    additions: number;
    deletions: number;
    binary: boolean;
    truncated: boolean;
    hunks: {
      header: string;
      lines: { kind: string; text: string; old_line: number | null; new_line: number | null }[];
    }[];
  }[];
  commits: { sha: string; subject: string; author: { name: string } }[];
  totals: { files: number; additions: number; deletions: number; commits: number };
  truncated: boolean;
  computed_at: string;
}

describe.each<Forge>(['local', 'github', 'gitea'])('the change of a task on a %s project', (kind) => {
  it('lists every file with its status, counts and hunks, the commits, and the tips', async () => {
    const { id: projectId, remote } = await project(kind);
    const task = await insertTask(t.platform.database.db, {
      projectId,
      branchName: `feature/changes-${made}`,
    });
    await developerChange(remote, task.branchName!);
    // main moves on after the branch is cut: its commit is not the task's.
    await commitOn(remote, 'main', 'chore: base moves on', async (_git, dir) => {
      writeFileSync(join(dir, 'README.md'), '# Shop\n\nA small shop, now bigger.\n');
    });

    const response = await get(`/api/tasks/${task.id}/changes`);
    expect(response.statusCode, response.body).toBe(200);
    const change = response.json() as Change;
    expect(change.base.branch).toBe('main');
    expect(change.head.branch).toBe(task.branchName);
    expect(change.base.sha).toBe(await gitText(openRepo(runner, remote), ['rev-parse', 'main']));
    expect(change.head.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(change.merge_base).not.toBe(change.base.sha);
    expect(change).toMatchObject({ mergeable: true, conflicts: [], truncated: false });
    expect(change.files.map(({ hunks, ...file }) => file)).toEqual([
      {
        path: 'assets/logo.png',
        previous_path: null,
        status: 'modified',
        additions: 0,
        deletions: 0,
        binary: true,
        truncated: false,
      },
      {
        path: 'docs/gone.md',
        previous_path: null,
        status: 'deleted',
        additions: 0,
        deletions: 2,
        binary: false,
        truncated: false,
      },
      {
        path: 'src/cart.ts',
        previous_path: null,
        status: 'modified',
        additions: 2,
        deletions: 1,
        binary: false,
        truncated: false,
      },
      {
        path: 'src/checkout.ts',
        previous_path: null,
        status: 'added',
        additions: 1,
        deletions: 0,
        binary: false,
        truncated: false,
      },
      {
        path: 'src/new-name.ts',
        previous_path: 'src/old-name.ts',
        status: 'renamed',
        additions: 0,
        deletions: 0,
        binary: false,
        truncated: false,
      },
    ]);
    const cart = change.files.find((file) => file.path === 'src/cart.ts')!;
    expect(cart.hunks[0]!.lines).toEqual([
      { kind: 'context', text: 'export const cart = [];', old_line: 1, new_line: 1 },
      { kind: 'del', text: 'export const total = 0;', old_line: 2, new_line: null },
      { kind: 'add', text: 'export const total = 42;', old_line: null, new_line: 2 },
      { kind: 'add', text: 'export const tax = 0.2;', old_line: null, new_line: 3 },
    ]);
    expect(change.commits.map((commit) => [commit.subject, commit.author.name])).toEqual([
      ['feat: cart totals', 'Dev One'],
    ]);
    expect(change.totals).toEqual({ files: 5, additions: 3, deletions: 3, commits: 1 });
  });
});

describe('what CI says of a task change', () => {
  it('says a local project has no CI', async () => {
    const { id: projectId, remote } = await project('local');
    const task = await insertTask(t.platform.database.db, { projectId, branchName: `feature/ci-${made}` });
    await developerChange(remote, task.branchName!);
    const response = await get(`/api/tasks/${task.id}/changes/ci`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      forge: 'local',
      head_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      conclusion: null,
      run_url: null,
      run_name: null,
    });
  });

  it.each<Forge>(['github', 'gitea'])(
    'answers the %s checks of the head commit, afresh on every call',
    async (kind) => {
      const { id: projectId, remote } = await project(kind);
      const task = await insertTask(t.platform.database.db, { projectId, branchName: `feature/ci-${made}` });
      await developerChange(remote, task.branchName!);
      const head = await gitText(openRepo(runner, remote), ['rev-parse', task.branchName!]);
      const url = `/api/tasks/${task.id}/changes/ci`;
      expect((await get(url)).json()).toMatchObject({ forge: kind, head_sha: head, conclusion: 'unknown' });

      const run = forge.addRun({
        owner: 'acme',
        repo: `changes-${made}`,
        workflow: 'ci.yml',
        branch: task.branchName!,
        headSha: head,
        conclusion: null,
        status: 'in_progress',
      });
      expect((await get(url)).json()).toMatchObject({ conclusion: 'pending' });
      forge.updateRun(run.id, { status: 'completed', conclusion: 'failure' });
      const failed = (await get(url)).json() as { conclusion: string; run_url: string | null };
      expect(failed.conclusion).toBe('failure');
      expect(failed.run_url).toEqual(expect.any(String));
    },
  );

  it('refuses a task with no branch and an unknown task', async () => {
    const { id: projectId } = await project('local');
    const bare = await insertTask(t.platform.database.db, { projectId });
    expect((await get(`/api/tasks/${bare.id}/changes/ci`)).statusCode).toBe(409);
    expect((await get('/api/tasks/00000000-0000-4000-8000-000000000099/changes/ci')).statusCode).toBe(404);
  });
});

describe('a task change', () => {
  it('is not mergeable when the base changed the same lines, and names the paths', async () => {
    const { id: projectId, remote } = await project();
    const task = await insertTask(t.platform.database.db, { projectId, branchName: 'feature/conflict' });
    await developerChange(remote, 'feature/conflict');
    await commitToRemote(
      runner,
      remote,
      'main',
      { 'src/cart.ts': 'export const total = -1;\n' },
      'fix: total',
    );
    const change = (await get(`/api/tasks/${task.id}/changes`)).json() as Change;
    expect(change).toMatchObject({ mergeable: false, conflicts: ['src/cart.ts'] });
  });

  it('answers from the cache for unchanged tips and afresh after a new commit', async () => {
    const { id: projectId, remote } = await project();
    const task = await insertTask(t.platform.database.db, { projectId, branchName: 'feature/cached' });
    await developerChange(remote, 'feature/cached');
    const first = (await get(`/api/tasks/${task.id}/changes`)).json() as Change;
    clock.advance(60_000);
    const again = (await get(`/api/tasks/${task.id}/changes`)).json() as Change;
    expect(again).toEqual(first);
    await commitToRemote(runner, remote, 'feature/cached', { 'src/more.ts': 'export {};\n' }, 'feat: more');
    const after = (await get(`/api/tasks/${task.id}/changes`)).json() as Change;
    expect(after.head.sha).not.toBe(first.head.sha);
    expect(Date.parse(after.computed_at) - Date.parse(first.computed_at)).toBe(60_000);
    expect(after.files.map((file) => file.path)).toContain('src/more.ts');
    expect(after.commits.map((commit) => commit.subject)).toEqual(['feat: more', 'feat: cart totals']);
  });

  it("diffs a child task against its parent's branch", async () => {
    const { id: projectId, remote } = await project();
    const db = t.platform.database.db;
    const parent = await insertTask(db, { projectId, branchName: 'feature/parent' });
    const child = await insertTask(db, { projectId, parentTaskId: parent.id, branchName: 'feature/child' });
    await commitToRemote(
      runner,
      remote,
      'feature/parent',
      { 'src/parent.ts': 'export {};\n' },
      'parent work',
      'main',
    );
    await commitToRemote(
      runner,
      remote,
      'feature/child',
      { 'src/child.ts': 'export {};\n' },
      'child work',
      'feature/parent',
    );
    const change = (await get(`/api/tasks/${child.id}/changes`)).json() as Change;
    expect(change.base.branch).toBe('feature/parent');
    expect(change.files.map((file) => file.path)).toEqual(['src/child.ts']);
    expect(change.commits.map((commit) => commit.subject)).toEqual(['child work']);
  });

  it('caps a large file, says so, and answers that file whole on its own', async () => {
    const { id: projectId, remote } = await project();
    const task = await insertTask(t.platform.database.db, { projectId, branchName: 'feature/big' });
    const big = `${Array.from({ length: BIG_LINES }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    await commitToRemote(
      runner,
      remote,
      'feature/big',
      { 'data/big.txt': big, 'small.txt': 'x\n' },
      'big',
      'main',
    );
    const change = (await get(`/api/tasks/${task.id}/changes`)).json() as Change & {
      limits: { file_lines: number };
    };
    const file = change.files.find((f) => f.path === 'data/big.txt')!;
    expect(change.truncated).toBe(true);
    expect(file).toMatchObject({ truncated: true, additions: BIG_LINES });
    expect(file.hunks.flatMap((hunk) => hunk.lines)).toHaveLength(change.limits.file_lines);
    expect(change.files.find((f) => f.path === 'small.txt')).toMatchObject({
      truncated: false,
      additions: 1,
    });

    const whole = await get(
      `/api/tasks/${task.id}/changes/file?path=${encodeURIComponent('./data//big.txt')}`,
    );
    expect(whole.statusCode, whole.body).toBe(200);
    const lines = (whole.json() as Change['files'][number]).hunks.flatMap((hunk) => hunk.lines);
    expect(lines).toHaveLength(BIG_LINES);
    expect(lines.at(-1)).toEqual({
      kind: 'add',
      text: `line ${BIG_LINES}`,
      old_line: null,
      new_line: BIG_LINES,
    });
  });

  it('answers the old path of a renamed file with the rename', async () => {
    const { id: projectId, remote } = await project();
    const task = await insertTask(t.platform.database.db, { projectId, branchName: 'feature/rename' });
    await developerChange(remote, 'feature/rename');
    const response = await get(`/api/tasks/${task.id}/changes/file?path=src/old-name.ts`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ path: 'src/new-name.ts', status: 'renamed' });
  });

  it('refuses what it cannot answer with a clear 4xx', async () => {
    const { id: projectId, remote } = await project();
    const db = t.platform.database.db;
    const task = await insertTask(db, { projectId, branchName: 'feature/refusals' });
    await developerChange(remote, 'feature/refusals');
    const branchless = await insertTask(db, { projectId });
    const unpushed = await insertTask(db, { projectId, branchName: 'feature/never-pushed' });
    const projectless = await insertTask(db, {});
    const dev = rosterMember('be-dev-1');
    const cases: [string, string, Record<string, string> | undefined, number, string][] = [
      ['an unknown task', `/api/tasks/${crypto.randomUUID()}/changes`, undefined, 404, 'not_found'],
      ['a malformed id', '/api/tasks/not-a-uuid/changes', undefined, 422, 'validation_failed'],
      ['a task with no branch yet', `/api/tasks/${branchless.id}/changes`, undefined, 409, 'no_branch'],
      ['a branch never pushed', `/api/tasks/${unpushed.id}/changes`, undefined, 409, 'branch_missing'],
      ['a task of no project', `/api/tasks/${projectless.id}/changes`, undefined, 409, 'task_not_in_project'],
      [
        'a path the change does not touch',
        `/api/tasks/${task.id}/changes/file?path=README.md`,
        undefined,
        404,
        'path_not_in_change',
      ],
      [
        'a path climbing out (stopped by the request guard)',
        `/api/tasks/${task.id}/changes/file?path=../etc/passwd`,
        undefined,
        403,
        'request_blocked',
      ],
      [
        'a path with a backslash',
        `/api/tasks/${task.id}/changes/file?path=src%5Ccart.ts`,
        undefined,
        422,
        'validation_failed',
      ],
      [
        'a developer',
        `/api/tasks/${task.id}/changes`,
        t.headersFor(dev.id, dev.role, dev.team ?? ''),
        403,
        'forbidden',
      ],
      ['no identity', `/api/tasks/${task.id}/changes`, {}, 401, 'missing_token'],
    ];
    for (const [what, url, headers, status, code] of cases) {
      const response = await get(url, headers ?? t.ceoHeaders);
      expect([what, response.statusCode, response.json().error?.code]).toEqual([what, status, code]);
    }
    // QA, PR reviewers, PMs and the auditor read it.
    for (const slug of ['be-qa', 'pr-reviewer-1', 'be-pm', 'main-pm', 'auditor']) {
      const member = rosterMember(slug);
      const response = await get(
        `/api/tasks/${task.id}/changes`,
        t.headersFor(member.id, member.role, member.team ?? ''),
      );
      expect([slug, response.statusCode]).toEqual([slug, 200]);
    }
  });
});
