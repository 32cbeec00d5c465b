/**
 * Projects on GitHub and Gitea through the workspaces service, against the fake forge: the task
 * branch travels over git smart HTTP with the project's token, its pull request opens and merges
 * through the REST API of the project's provider and `forge_api_url`, CI is read from that API,
 * forges are built once per project, and a project whose provider is unknown gets none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedBareRemote } from '../src/platform/git/test-support.js';
import { beDev, bePm, mainPm, useWorkspaceFixture } from './git-workspaces-fixture.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';

const fx = useWorkspaceFixture();
let fake: FakeForge;
beforeEach(async () => {
  fake = await startFakeForge();
});
afterEach(() => fake.close());

async function servedProject(provider: 'github' | 'gitea') {
  const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'), [
    {
      message: 'Initial commit',
      files: { 'README.md': '# Shop\n', 'src/app.ts': 'export const app = 1;\n' },
    },
  ]);
  fake.serveGit('acme', 'shop', remote);
  const project = await fx.insertProject(fake.gitUrl('acme', 'shop'), {
    gitProvider: provider,
    forgeApiUrl: provider === 'github' ? fake.githubApiUrl : fake.giteaApiUrl,
  });
  return { remote, project };
}

describe.each(['github', 'gitea'] as const)('a %s project on the fake forge', (provider) => {
  it('pushes the task branch with the token and opens and merges its pull request through the API', async () => {
    const { remote, project } = await servedProject(provider);
    const ws = fx.service(fake.token);
    let { root, cell, leaf } = await fx.chain(project.id);
    for (const [task, agent] of [
      [root, mainPm],
      [cell, bePm],
    ] as const) {
      const space = await ws.prepareTaskWorkspace({ task, project, agent });
      const updated = await fx.update(task, { branchName: space.branch });
      if (task === root) root = updated;
      else cell = updated;
    }
    const space = await ws.prepareTaskWorkspace({ task: leaf, project, agent: beDev });
    leaf = await fx.update(leaf, { branchName: space.branch });
    writeFileSync(join(space.path, 'src/limiter.ts'), 'export const limit = 5;\n');
    const commit = await ws.commit({
      task: leaf,
      project,
      agent: beDev,
      message: 'Add the login rate limiter module',
    });
    expect(await fx.tip(remote, space.branch)).toBe(commit.sha);

    const { pull } = await ws.openPullRequest({ task: leaf, project });
    const web = `${fake.url}/acme/shop/${provider === 'github' ? 'pull' : 'pulls'}/1`;
    expect(pull).toMatchObject({
      number: 1,
      url: web,
      state: 'open',
      head: space.branch,
      base: cell.branchName,
    });
    expect(fake.pulls('acme', 'shop')).toMatchObject([{ head: space.branch, base: cell.branchName }]);

    leaf = await fx.update(leaf, { prNumber: pull.number, prCreated: true, status: 'awaiting_pm_review' });
    const merge = await ws.mergePullRequest({ task: leaf, project, actor: bePm });
    expect(merge).toMatchObject({ number: 1, alreadyMerged: false, headBranchDeleted: true });
    expect(fake.pulls('acme', 'shop')[0]).toMatchObject({ merged: true, merge_commit_sha: merge.sha });
    expect(await fx.tip(remote, cell.branchName!)).toBe(merge.sha);
    expect(await fx.tip(remote, space.branch)).toBeNull();
    expect((await ws.mergePullRequest({ task: leaf, project, actor: bePm })).alreadyMerged).toBe(true);
    expect(fake.requests.every((request) => request.authorized)).toBe(true);
    expect(fake.requests[0]!.path.startsWith(provider === 'github' ? '/api/v3/' : '/api/v1/')).toBe(true);
  });

  it('reads CI from the API, with one forge per project', async () => {
    const { project } = await servedProject(provider);
    const headSha = 'd'.repeat(40);
    fake.addRun({
      owner: 'acme',
      repo: 'shop',
      workflow: 'ci.yml',
      branch: 'main',
      headSha,
      conclusion: 'failure',
    });
    const ws = fx.service(fake.token);
    const forge = ws.forgeFor(project);
    expect(forge.provider).toBe(provider);
    expect(ws.forgeFor({ ...project })).toBe(forge);
    expect(await forge.commitCiStatus(headSha, 'ci.yml')).toMatchObject({ conclusion: 'failure', headSha });
  });

  it('treats a project without a token as unauthorized at call time', async () => {
    const { project } = await servedProject(provider);
    const forge = fx.service(null).forgeFor(project);
    await expect(forge.branchCiStatus('main', 'ci.yml')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('projects without a REST forge', () => {
  it('has no forge when the provider of a URL is unknown', async () => {
    const project = await fx.insertProject('https://git.example.org/acme/shop.git', { gitProvider: null });
    expect(() => fx.service().forgeFor(project)).toThrow(
      expect.objectContaining({ code: 'forge_unavailable' }),
    );
  });

  it('still gives local projects the local forge', async () => {
    const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'));
    const project = await fx.insertProject(remote);
    expect(fx.service().forgeFor(project).provider).toBe('local');
  });
});
