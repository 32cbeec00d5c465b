/**
 * Git workspaces end to end, with real git on a bare repository on disk as the project's remote
 * and the local forge: a root → cell → leaf chain gets its branches, a developer commits in its
 * worktree, the leaf's pull request is merged into the cell branch by the cell PM, the cell's into
 * the root branch, and the root's onto main only by the CEO; commits are validated and refreshed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitText, openRepo, showFileAt } from '../src/platform/git/index.js';
import { commitToRemote, seedBareRemote } from '../src/platform/git/test-support.js';
import { beDev, bePm, beQa, ceo, mainPm, short, useWorkspaceFixture } from './git-workspaces-fixture.js';

const fx = useWorkspaceFixture();

describe('the merge chain on a bare remote with the local forge', () => {
  it('takes a leaf through its cell and root onto main, the last step by the CEO only', async () => {
    const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'), [
      {
        message: 'Initial commit',
        files: { 'README.md': '# Shop\n', 'src/app.ts': 'export const app = 1;\n' },
      },
    ]);
    const project = await fx.insertProject(remote);
    const ws = fx.service();
    let { root, cell, leaf } = await fx.chain(project.id);

    const rootSpace = await ws.prepareTaskWorkspace({ task: root, project, agent: mainPm });
    expect(rootSpace).toMatchObject({
      branch: `feature/main_pm/${short(root.id)}`,
      base: 'main',
      created: true,
    });
    root = await fx.update(root, { branchName: rootSpace.branch });
    const cellSpace = await ws.prepareTaskWorkspace({ task: cell, project, agent: bePm });
    expect(cellSpace).toMatchObject({
      branch: `feature/backend/${short(root.id)}--${short(cell.id)}`,
      base: rootSpace.branch,
      mode: 'reader',
    });
    cell = await fx.update(cell, { branchName: cellSpace.branch });

    const leafSpace = await ws.prepareTaskWorkspace({ task: leaf, project, agent: beDev });
    expect(leafSpace).toMatchObject({
      branch: `feature/backend/${short(root.id)}--${short(cell.id)}--${short(leaf.id)}`,
      base: cellSpace.branch,
      mode: 'author',
      path: join(fx.platform.config.dataDir, 'workspaces', 'be-dev-1', fx.slug, 'tasks', short(leaf.id)),
    });
    expect(await fx.tip(remote, cellSpace.branch)).not.toBeNull();
    leaf = await fx.update(leaf, { branchName: leafSpace.branch });

    writeFileSync(
      join(leafSpace.path, 'src/limiter.ts'),
      'export const limit = 5;\nexport const window = 60;\n',
    );
    writeFileSync(join(leafSpace.path, 'src/app.ts'), 'export const app = 2;\n');
    const commit = await ws.commit({
      task: leaf,
      project,
      agent: beDev,
      message: 'Add the login rate limiter',
    });
    expect(commit).toMatchObject({
      branch: leafSpace.branch,
      subject: `[${short(leaf.id)}] Add the login rate limiter`,
      files: ['src/app.ts', 'src/limiter.ts'],
      committed: true,
    });
    expect(await fx.tip(remote, leafSpace.branch)).toBe(commit.sha);

    const summary = await ws.diffSummary({ task: leaf, project });
    expect(summary).toMatchObject({
      branch: leafSpace.branch,
      base: cellSpace.branch,
      branch_exists: true,
      totals: { files_changed: 2, insertions: 3, deletions: 1, commits: 1 },
      files: [
        { path: 'src/app.ts', status: 'modified', insertions: 1, deletions: 1 },
        { path: 'src/limiter.ts', status: 'added', insertions: 2, deletions: 0 },
      ],
    });
    expect(summary.commits[0]).toMatchObject({ sha: commit.sha, author: 'be-dev-1' });
    expect(summary.diff).toContain('+export const limit = 5;');

    const { pull, base } = await ws.openPullRequest({ task: leaf, project });
    expect(base).toBe(cellSpace.branch);
    expect(pull).toMatchObject({
      number: 1,
      state: 'open',
      head: leafSpace.branch,
      base: cellSpace.branch,
      title: `[${short(leaf.id)}] Add the limiter middleware`,
      body: 'Five login attempts a minute per address.',
    });
    expect((await ws.openPullRequest({ task: leaf, project })).pull.number).toBe(1);
    leaf = await fx.update(leaf, { prNumber: pull.number, prCreated: true, status: 'awaiting_qa' });

    await expect(ws.mergePullRequest({ task: leaf, project, actor: bePm })).rejects.toMatchObject({
      code: 'invalid_state_for_merge',
      flavor: 'invalid_state',
    });
    leaf = await fx.update(leaf, { status: 'awaiting_pm_review' });
    await expect(ws.mergePullRequest({ task: leaf, project, actor: beDev })).rejects.toMatchObject({
      code: 'not_authorized',
      statusCode: 403,
    });
    const leafMerge = await ws.mergePullRequest({ task: leaf, project, actor: bePm });
    expect(leafMerge).toMatchObject({
      base: cellSpace.branch,
      alreadyMerged: false,
      headBranchDeleted: true,
    });
    const remoteRepo = openRepo(fx.runner, remote);
    expect(await fx.tip(remote, cellSpace.branch)).toBe(leafMerge.sha);
    expect(await fx.tip(remote, leafSpace.branch)).toBeNull();
    expect(await showFileAt(remoteRepo, cellSpace.branch, 'src/limiter.ts')).toMatchObject({ kind: 'text' });
    expect((await ws.mergePullRequest({ task: leaf, project, actor: bePm })).alreadyMerged).toBe(true);

    const cellPull = await ws.openPullRequest({ task: cell, project });
    expect(cellPull.pull).toMatchObject({ number: 2, head: cellSpace.branch, base: rootSpace.branch });
    cell = await fx.update(cell, { prNumber: 2, status: 'awaiting_pm_review' });
    await ws.mergePullRequest({ task: cell, project, actor: bePm });
    expect(await showFileAt(remoteRepo, rootSpace.branch, 'src/limiter.ts')).toMatchObject({ kind: 'text' });

    const rootPull = await ws.openPullRequest({ task: root, project });
    expect(rootPull.pull).toMatchObject({ number: 3, head: rootSpace.branch, base: 'main' });
    root = await fx.update(root, { prNumber: 3, status: 'awaiting_pm_review' });
    for (const actor of [mainPm, bePm]) {
      await expect(ws.mergePullRequest({ task: root, project, actor })).rejects.toMatchObject({
        code: 'ceo_only',
        flavor: 'not_authorized',
      });
    }
    expect(await showFileAt(remoteRepo, 'main', 'src/limiter.ts')).toBeNull();
    root = await fx.update(root, { status: 'awaiting_ceo_approval' });
    const landed = await ws.mergePullRequest({ task: root, project, actor: ceo });
    expect(await fx.tip(remote, 'main')).toBe(landed.sha);
    expect(await showFileAt(remoteRepo, 'main', 'src/limiter.ts')).toEqual({
      kind: 'text',
      text: 'export const limit = 5;\nexport const window = 60;\n',
      size: 50,
    });
    const log = await fx.runner.text(['log', '--format=%s', 'main'], { cwd: remote });
    expect(log.split('\n')).toEqual([`[${short(root.id)}] Rate limiting (#3)`, 'Initial commit']);

    expect(await ws.cleanupTask(leaf, project)).toEqual([leafSpace.path]);
    expect(existsSync(leafSpace.path)).toBe(false);

    const read = await ws.branchFile(project, 'main', 'src/limiter.ts');
    expect(read?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(read?.file).toMatchObject({ kind: 'text', size: 50 });
    expect((await ws.branchFile(project, 'main', 'nope.txt'))?.file).toBeNull();
    expect(await ws.branchFile(project, 'no-such-branch', 'src/limiter.ts')).toBeNull();
    await ws.deleteRemoteBranch(project, cellSpace.branch);
    expect(await fx.tip(remote, cellSpace.branch)).toBeNull();
    await expect(ws.deleteRemoteBranch(project, 'main')).rejects.toMatchObject({ code: 'protected_branch' });
    expect(await fx.tip(remote, 'main')).toBe(landed.sha);
  });

  it('refuses agent merges into any ladder rung or protected branch', async () => {
    const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'));
    await commitToRemote(fx.runner, remote, 'develop', { 'd.txt': 'd\n' }, 'Develop', 'main');
    const project = await fx.insertProject(remote, {
      environments: [
        { name: 'dev', branch: 'develop' },
        { name: 'prod', branch: 'main' },
      ],
    });
    const ws = fx.service();
    let task = await fx.insertTask({ team: 'backend', projectId: project.id });
    const space = await ws.prepareTaskWorkspace({ task, project, agent: beDev });
    expect(space.base).toBe('develop');
    task = await fx.update(task, { branchName: space.branch });
    writeFileSync(join(space.path, 'feature.txt'), 'f\n');
    await ws.commit({ task, project, agent: beDev, message: 'Add the feature text file' });
    const { pull } = await ws.openPullRequest({ task, project });
    expect(pull.base).toBe('develop');
    task = await fx.update(task, { prNumber: pull.number, status: 'awaiting_pm_review' });
    await expect(ws.mergePullRequest({ task, project, actor: bePm })).rejects.toMatchObject({
      code: 'ceo_only',
    });
    await expect(ws.mergePullRequest({ task, project, actor: mainPm })).rejects.toMatchObject({
      code: 'ceo_only',
    });
  });
});

describe('commits', () => {
  async function leafWorkspace() {
    const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'));
    const project = await fx.insertProject(remote);
    const ws = fx.service();
    let task = await fx.insertTask({ team: 'backend', projectId: project.id });
    const space = await ws.prepareTaskWorkspace({ task, project, agent: beDev });
    task = await fx.update(task, { branchName: space.branch });
    return { remote, project, ws, task, space };
  }

  it('validates the message, needs changes, and is for developers and documenters only', async () => {
    const { project, ws, task, space } = await leafWorkspace();
    await expect(
      ws.commit({ task, project, agent: beDev, message: 'Add the rate limiter module' }),
    ).rejects.toMatchObject({ code: 'nothing_to_commit', flavor: 'invalid_state' });
    writeFileSync(join(space.path, 'a.txt'), 'a\n');
    await expect(ws.commit({ task, project, agent: beDev, message: 'wip' })).rejects.toMatchObject({
      code: 'commit_message_too_short',
      flavor: 'invalid_state',
    });
    await expect(
      ws.commit({ task, project, agent: beQa, message: 'QA should not commit this file' }),
    ).rejects.toMatchObject({ code: 'commit_not_allowed', flavor: 'not_authorized' });
    await expect(
      ws.commit({
        task,
        project,
        agent: { slug: 'be-dev-2', role: 'developer', team: 'backend' },
        message: 'Work from another developer here',
      }),
    ).rejects.toMatchObject({ code: 'workspace_missing' });
    const made = await ws.commit({
      task,
      project,
      agent: beDev,
      message: '[deadbeef] Add the a text file for tests',
    });
    expect(made.subject).toBe(`[${short(task.id)}] Add the a text file for tests`);
  });

  it('commits only the files named, and publishes an earlier commit whose push failed', async () => {
    const { remote, project, ws, task, space } = await leafWorkspace();
    writeFileSync(join(space.path, 'keep.txt'), 'k\n');
    writeFileSync(join(space.path, 'later.txt'), 'l\n');
    const first = await ws.commit({
      task,
      project,
      agent: beDev,
      message: 'Add only the keep file',
      files: ['keep.txt'],
    });
    expect(first.files).toEqual(['keep.txt']);
    const tree = openRepo(fx.runner, space.path);
    await fx.runner.run(['add', 'later.txt'], { cwd: tree.dir });
    await fx.runner.run(['commit', '-q', '-m', 'local only'], {
      cwd: tree.dir,
      identity: { name: 'be-dev-1', email: 'x@y' },
    });
    const republished = await ws.commit({
      task,
      project,
      agent: beDev,
      message: 'Nothing new, just push it',
    });
    expect(republished.committed).toBe(false);
    expect(await fx.tip(remote, task.branchName!)).toBe(republished.sha);
  });

  it('puts its commit on top of another author’s push to the branch, and names the files when they conflict', async () => {
    const { remote, project, ws, task, space } = await leafWorkspace();
    const beDoc = { slug: 'be-doc', role: 'documenter', team: 'backend' } as const;
    const doc = await ws.prepareTaskWorkspace({ task, project, agent: beDoc });
    writeFileSync(join(doc.path, 'guide.md'), '# Guide\n');
    const documented = await ws.commit({
      task,
      project,
      agent: beDoc,
      message: 'Document the rate limiter module',
    });
    // The developer's worktree predates that push: its commit is rebased onto it and pushed.
    writeFileSync(join(space.path, 'limiter.ts'), 'export {};\n');
    const made = await ws.commit({ task, project, agent: beDev, message: 'Add the rate limiter module' });
    expect(await fx.tip(remote, task.branchName!)).toBe(made.sha);
    const tree = openRepo(fx.runner, space.path);
    expect(await gitText(tree, ['rev-parse', `${made.sha}~1`])).toBe(documented.sha);
    expect(existsSync(join(space.path, 'guide.md'))).toBe(true);

    // Both change one file: refused, naming it, and the developer's commit stays as it was.
    await ws.prepareTaskWorkspace({ task, project, agent: beDoc });
    writeFileSync(join(doc.path, 'limiter.ts'), 'export const docs = 1;\n');
    const theirs = await ws.commit({ task, project, agent: beDoc, message: 'Fix the rate limiter example' });
    writeFileSync(join(space.path, 'limiter.ts'), 'export const limit = 10;\n');
    await expect(
      ws.commit({ task, project, agent: beDev, message: 'Set the default request limit' }),
    ).rejects.toMatchObject({ code: 'push_rejected', details: { conflicts: ['limiter.ts'] } });
    expect(await fx.tip(remote, task.branchName!)).toBe(theirs.sha);
    expect(await gitText(tree, ['log', '-1', '--format=%s'])).toBe(
      `[${short(task.id)}] Set the default request limit`,
    );
    expect(await gitText(tree, ['status', '--porcelain'])).toBe('');
  });

  it('refreshes a reader workspace to the branch tip after the author pushes again', async () => {
    const { project, ws, task, space } = await leafWorkspace();
    writeFileSync(join(space.path, 'one.txt'), '1\n');
    await ws.commit({ task, project, agent: beDev, message: 'First change for the reader' });
    const qa = await ws.prepareTaskWorkspace({ task, project, agent: beQa });
    expect(existsSync(join(qa.path, 'one.txt'))).toBe(true);
    writeFileSync(join(space.path, 'two.txt'), '2\n');
    const second = await ws.commit({ task, project, agent: beDev, message: 'Second change for the reader' });
    const again = await ws.prepareTaskWorkspace({ task, project, agent: beQa });
    expect(again).toMatchObject({ path: qa.path, headSha: second.sha, created: false });
    expect(existsSync(join(qa.path, 'two.txt'))).toBe(true);
  });
});
