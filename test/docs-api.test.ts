/**
 * /api/docs over the real app, real git and a real bare remote: a write is a commit of that one
 * file on the task's branch (read back from the bare repository: content, tip sha, author), an
 * update is a second commit, the path ACL refuses by role, folder and cell (403) and malformed
 * paths (422) naming the rule and leaving the branch as it was, a delete is a commit removing the
 * file, and the knowledge source carries each doc and its tombstone once.
 */
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { projects } from '../src/modules/projects/schema.js';
import { workspacesRoot, worktreePath } from '../src/modules/workspaces/paths.js';
import { GitRunner, gitText, lsRemote, openRepo } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { insertTask } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
const dirs = tempDirs('gaffer-docs-api-');
let runner: GitRunner;

beforeAll(async () => {
  runner = new GitRunner({ home: join(dirs.make(), 'home') });
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  dirs.cleanup();
});

interface Doc {
  id: string;
  path: string;
  title: string;
  branch: string;
  commit_sha: string;
  created_by: string;
  updated_by: string;
  content?: string;
}
interface ErrorBody {
  error: { code: string; details?: { rule?: string } };
}

const as = (slug: string) => {
  const m = rosterMember(slug);
  return t.headersFor(m.id, m.role, m.team ?? '');
};

let made = 0;
async function setup() {
  const remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'));
  const [project] = await t.platform.database.db
    .insert(projects)
    .values({
      slug: `docs-shop-${++made}`,
      name: 'Shop',
      gitUrl: remote,
      gitProvider: 'local',
      createdBy: 'ceo',
    })
    .returning();
  const branch = `feature/docs-${made}`;
  const task = await insertTask(t.platform.database.db, {
    team: 'backend',
    projectId: project!.id,
    branchName: branch,
    title: 'Document the rate limiter',
  });
  const bare = openRepo(runner, remote);
  return {
    project: project!,
    task,
    branch,
    async tip() {
      const [head] = await lsRemote(bare, { remote, refs: [`refs/heads/${branch}`] });
      return head?.sha ?? null;
    },
    show: (ref: string, path: string) => gitText(bare, ['show', `${ref}:${path}`]),
    hasFile: async (ref: string, path: string) =>
      (await gitText(bare, ['ls-tree', '--name-only', '-r', ref])).split('\n').includes(path),
    author: (ref: string) => gitText(bare, ['log', '-1', '--format=%an %s', ref]),
  };
}

const write = (slug: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/docs', headers: as(slug), payload });

describe('docs', () => {
  it('commits a write on the task branch of the real repository, and an update as a second commit', async () => {
    const s = await setup();
    const content = '# Rate limiter\n\nFive attempts a minute per address.\n';
    const created = await write('be-doc', {
      task_id: s.task.id,
      path: 'docs/guide/rate-limiter.md',
      doc_type: 'guide',
      title: 'Rate limiter guide',
      content,
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = json<{ status: string; doc: Doc }>(created);
    expect(first.status).toBe('created');
    expect(first.doc).toMatchObject({
      branch: s.branch,
      created_by: 'be-doc',
      path: 'docs/guide/rate-limiter.md',
    });
    expect(await s.tip()).toBe(first.doc.commit_sha);
    expect(await s.show(s.branch, 'docs/guide/rate-limiter.md')).toBe(content.trimEnd());
    expect(await s.author(s.branch)).toMatch(
      /^be-doc \[[0-9a-f]{8}\] docs\(guide\): write docs\/guide\/rate-limiter\.md/,
    );
    expect(await s.hasFile('main', 'docs/guide/rate-limiter.md')).toBe(false);

    const updated = await write('be-dev-1', {
      task_id: s.task.id,
      path: 'docs/api/limits.md',
      doc_type: 'api',
      title: 'Limits API',
      content: '# GET /limits\n',
    });
    expect(updated.statusCode, updated.body).toBe(201);
    const again = await write('be-doc', {
      task_id: s.task.id,
      path: 'docs/guide/rate-limiter.md',
      doc_type: 'guide',
      title: 'Rate limiter guide, v2',
      content: '# Rate limiter\n\nTen attempts.\n',
    });
    expect(again.statusCode, again.body).toBe(200);
    const second = json<{ status: string; doc: Doc }>(again);
    expect(second).toMatchObject({
      status: 'updated',
      doc: { id: first.doc.id, title: 'Rate limiter guide, v2' },
    });
    expect(second.doc.commit_sha).not.toBe(first.doc.commit_sha);
    expect(await s.tip()).toBe(second.doc.commit_sha);
    expect(await s.show(s.branch, 'docs/guide/rate-limiter.md')).toBe('# Rate limiter\n\nTen attempts.');
    expect(await s.show(s.branch, 'docs/api/limits.md')).toBe('# GET /limits');

    const read = await t.app.inject({ url: `/api/docs/${first.doc.id}`, headers: as('fe-qa') });
    expect(read.statusCode).toBe(200);
    expect(json<Doc>(read)).toMatchObject({
      content: '# Rate limiter\n\nTen attempts.\n',
      commit_sha: second.doc.commit_sha,
    });
    const list = json<{ docs: Doc[] }>(
      await t.app.inject({ url: `/api/docs?task_id=${s.task.id}`, headers: as('be-pm') }),
    );
    expect(list.docs.map((d) => d.path).sort()).toEqual(['docs/api/limits.md', 'docs/guide/rate-limiter.md']);
    const apiOnly = json<{ docs: Doc[] }>(
      await t.app.inject({ url: `/api/docs?project_id=${s.project.id}&doc_type=api`, headers: as('be-pm') }),
    );
    expect(apiOnly.docs.map((d) => d.path)).toEqual(['docs/api/limits.md']);
  });

  it('refuses a write through a symbolic link the agent made in its worktree, and writes nothing outside it', async () => {
    const s = await setup();
    const first = await write('be-doc', {
      task_id: s.task.id,
      path: 'docs/guide/one.md',
      doc_type: 'guide',
      title: 'One',
      content: '# One\n',
    });
    expect(first.statusCode, first.body).toBe(201);
    // The agent points docs/guide at a folder outside its worktree (the data directory, say).
    const outside = dirs.make();
    const worktree = worktreePath(
      workspacesRoot(t.platform.config.dataDir),
      'be-doc',
      s.project.slug,
      s.task.id,
    );
    rmSync(join(worktree, 'docs', 'guide'), { recursive: true, force: true });
    symlinkSync(outside, join(worktree, 'docs', 'guide'));
    const through = await write('be-doc', {
      task_id: s.task.id,
      path: 'docs/guide/two.md',
      doc_type: 'guide',
      title: 'Two',
      content: '# Two\n',
    });
    expect(through.statusCode, through.body).toBe(409);
    expect(json<ErrorBody>(through).error.code).toBe('unsafe_path');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses by role, folder, cell and path shape, naming the rule, and commits nothing', async () => {
    const s = await setup();
    const doc = (path: string) => ({
      task_id: s.task.id,
      path,
      doc_type: 'guide',
      title: 'A doc',
      content: '# A\n',
    });
    const cases: [string, string, number, string][] = [
      ['be-pm', 'docs/guide/a.md', 403, 'role_writes_docs'],
      ['be-qa', 'docs/api/a.md', 403, 'folder_by_role'],
      ['be-dev-1', 'docs/guide/a.md', 403, 'folder_by_role'],
      ['be-doc', 'docs/internal/a.md', 403, 'internal_ceo_only'],
      ['fe-doc', 'docs/guide/a.md', 403, 'own_cell'],
      ['be-doc', 'docs/../secrets.md', 422, 'plain_relative_path'],
      ['be-doc', '/etc/docs/a.md', 422, 'plain_relative_path'],
      ['be-doc', 'docs/.git/config.md', 422, 'plain_relative_path'],
      ['be-doc', 'src/index.md', 422, 'under_docs'],
      ['be-doc', 'docs/guide/run.sh', 422, 'text_extension'],
    ];
    for (const [slug, path, status, rule] of cases) {
      const refused = await write(slug, doc(path));
      expect(refused.statusCode, `${slug} ${path}: ${refused.body}`).toBe(status);
      expect(json<ErrorBody>(refused).error.details?.rule, path).toBe(rule);
    }
    const big = await write('be-doc', { ...doc('docs/guide/big.md'), content: 'x'.repeat(530_000) });
    expect(big.statusCode).toBe(422);
    expect(json<ErrorBody>(big).error.details?.rule).toBe('size_cap');
    expect((await write('be-doc', { ...doc('docs/guide/a.md'), doc_type: 'poetry' })).statusCode).toBe(422);
    expect((await write('be-doc', { ...doc('docs/guide/a.md'), task_id: 'not-a-uuid' })).statusCode).toBe(
      422,
    );
    const ghost = await write('be-doc', {
      ...doc('docs/guide/a.md'),
      task_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(ghost.statusCode).toBe(404);
    expect(await s.tip()).toBeNull();
    expect(
      json<{ docs: Doc[] }>(await t.app.inject({ url: `/api/docs?task_id=${s.task.id}`, headers: as('ceo') }))
        .docs,
    ).toEqual([]);

    const qa = await write('be-qa', { ...doc('docs/qa/plan.md'), doc_type: 'qa' });
    expect(qa.statusCode, qa.body).toBe(201);
    const ceo = await t.app.inject({
      method: 'POST',
      url: '/api/docs',
      headers: t.ceoHeaders,
      payload: doc('docs/internal/plan.md'),
    });
    expect(ceo.statusCode, ceo.body).toBe(201);
    expect(await s.hasFile(s.branch, 'docs/internal/plan.md')).toBe(true);
  });

  it('deletes with a commit that removes the file, and the knowledge source carries the tombstone', async () => {
    const s = await setup();
    const source = t.modules.docs.knowledgeSource;
    const all = await source.changedSince(null, 1000);
    const last = all.at(-1) ?? null;
    const cursor = last ? { at: last.updated_at, ref: last.ref } : null;

    const created = json<{ doc: Doc }>(
      await write('be-doc', {
        task_id: s.task.id,
        path: 'docs/readme/intro.md',
        doc_type: 'readme',
        title: 'Intro',
        content: '# Intro\n',
      }),
    ).doc;
    const fresh = await source.changedSince(cursor, 10);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({
      source: 'doc',
      ref: created.id,
      project_id: s.project.id,
      body: '# Intro\n',
      deleted: false,
      url: `/api/docs/${created.id}`,
    });

    const del = (headers: Record<string, string>) =>
      t.app.inject({ method: 'DELETE', url: `/api/docs/${created.id}`, headers });
    expect((await del(as('be-qa'))).statusCode).toBe(403);
    expect(await s.hasFile(s.branch, 'docs/readme/intro.md')).toBe(true);
    const gone = await del(as('be-doc'));
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await s.hasFile(s.branch, 'docs/readme/intro.md')).toBe(false);
    expect(await s.tip()).toBe(json<Doc>(gone).commit_sha);
    expect(await s.author(s.branch)).toMatch(/docs\(readme\): remove docs\/readme\/intro\.md/);
    expect((await t.app.inject({ url: `/api/docs/${created.id}`, headers: as('be-doc') })).statusCode).toBe(
      404,
    );
    expect((await del(as('be-doc'))).statusCode).toBe(404);

    const after = await source.changedSince({ at: fresh[0]!.updated_at, ref: fresh[0]!.ref }, 10);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ ref: created.id, deleted: true });
    expect(await source.changedSince({ at: after[0]!.updated_at, ref: created.id }, 10)).toEqual([]);

    const rewritten = await write('be-doc', {
      task_id: s.task.id,
      path: 'docs/readme/intro.md',
      doc_type: 'readme',
      title: 'Intro again',
      content: '# Intro again\n',
    });
    expect(rewritten.statusCode, rewritten.body).toBe(201);
    expect(json<{ doc: Doc }>(rewritten).doc.id).not.toBe(created.id);
  });

  it('refuses a task without a repository or without a branch yet with a 409', async () => {
    const task = await insertTask(t.platform.database.db, { team: 'backend', title: 'Coordination' });
    const refused = await write('be-doc', {
      task_id: task.id,
      path: 'docs/guide/a.md',
      doc_type: 'guide',
      title: 'A',
      content: '# A\n',
    });
    expect(refused.statusCode).toBe(409);
    expect(json<ErrorBody>(refused).error.code).toBe('no_repository');

    const s = await setup();
    const unclaimed = await insertTask(t.platform.database.db, { team: 'backend', projectId: s.project.id });
    const early = await write('be-doc', {
      task_id: unclaimed.id,
      path: 'docs/guide/a.md',
      doc_type: 'guide',
      title: 'A',
      content: '# A\n',
    });
    expect(early.statusCode).toBe(409);
    expect(json<ErrorBody>(early).error.code).toBe('no_branch');
  });
});
