/**
 * Git workspaces and credentials: over a loopback smart-HTTP server that demands the project's
 * token, a whole flow (workspace, commit, pull request, CEO merge) never puts the token in an argv
 * or a .git/config; without it the call fails cleanly. Aborts kill a hanging fetch; the module is
 * built from the platform with the projects module's token lookup.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspacesModule } from '../src/modules/workspaces/index.js';
import { secretForms } from '../src/platform/git/index.js';
import {
  type GitHttpServer,
  seedBareRemote,
  startGitHttpServer,
  startSilentServer,
} from '../src/platform/git/test-support.js';
import { beDev, ceo, useWorkspaceFixture } from './git-workspaces-fixture.js';

const fx = useWorkspaceFixture();

describe('credentials', () => {
  const servers: GitHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('keeps the token out of every argv and every .git/config through a whole flow', async () => {
    const token = 'gho_WorkspaceToken_0123456789';
    const served = fx.dirs.make();
    await seedBareRemote(fx.runner, join(served, 'shop.git'));
    const server = await startGitHttpServer(served, { token });
    servers.push(server);
    const project = await fx.insertProject(server.urlFor('shop.git'));
    const ws = fx.service(token);
    let task = await fx.insertTask({ team: 'backend', projectId: project.id });
    const space = await ws.prepareTaskWorkspace({ task, project, agent: beDev });
    task = await fx.update(task, { branchName: space.branch });
    writeFileSync(join(space.path, 'secret-free.txt'), 'x\n');
    await ws.commit({ task, project, agent: beDev, message: 'Add a file over authenticated http' });
    const { pull } = await ws.openPullRequest({ task, project });
    task = await fx.update(task, { prNumber: pull.number, status: 'awaiting_ceo_approval' });
    await ws.mergePullRequest({ task, project, actor: ceo });

    expect(server.authorizations.some((value) => value.startsWith('Basic '))).toBe(true);
    const forms = secretForms(token);
    expect(fx.spawns.length).toBeGreaterThan(10);
    for (const spawn of fx.spawns)
      for (const form of forms) expect(spawn.argv.join('\n')).not.toContain(form);
    const configs = findFiles(join(fx.platform.config.dataDir, 'workspaces'), 'config').filter((f) =>
      f.includes(fx.slug),
    );
    expect(configs.length).toBeGreaterThanOrEqual(3);
    for (const file of configs)
      for (const form of forms) expect(readFileSync(file, 'utf8')).not.toContain(form);
    const mirrorConfig = readFileSync(
      join(fx.platform.config.dataDir, 'workspaces', '.mirrors', `${fx.slug}.git`, 'config'),
      'utf8',
    );
    expect(mirrorConfig).not.toContain('[remote');
  });

  it('fails cleanly without the token', async () => {
    const served = fx.dirs.make();
    await seedBareRemote(fx.runner, join(served, 'shop.git'));
    const server = await startGitHttpServer(served, { token: 'the-right-one' });
    servers.push(server);
    const project = await fx.insertProject(server.urlFor('shop.git'));
    const task = await fx.insertTask({ team: 'backend', projectId: project.id });
    await expect(
      fx.service(null).prepareTaskWorkspace({ task, project, agent: beDev }),
    ).rejects.toMatchObject({
      code: 'git_failed',
      flavor: 'invalid_state',
    });
  });
});

describe('aborts and the module', () => {
  it('kills a hanging fetch of the remote when the signal aborts', async () => {
    const server = await startSilentServer();
    try {
      const project = await fx.insertProject(server.url);
      const task = await fx.insertTask({ team: 'backend', projectId: project.id });
      const controller = new AbortController();
      const preparing = fx.service().prepareTaskWorkspace({
        task,
        project,
        agent: beDev,
        signal: controller.signal,
      });
      const until = Date.now() + 10_000;
      while (server.connections() === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      controller.abort();
      await expect(preparing).rejects.toMatchObject({ name: 'GitError', failure: 'aborted' });
    } finally {
      await server.close();
    }
  });

  it('is built from the platform, with the project token from the projects module', async () => {
    const remote = await seedBareRemote(fx.runner, join(fx.dirs.make(), 'shop.git'));
    const project = await fx.insertProject(remote);
    const asked: string[] = [];
    const module = createWorkspacesModule({
      platform: fx.platform,
      deps: {
        projects: {
          service: {
            gitToken: async (id: string) => {
              asked.push(id);
              return null;
            },
          },
        },
      },
    });
    expect(module.service.root).toBe(join(fx.platform.config.dataDir, 'workspaces'));
    const task = await fx.insertTask({ team: 'backend', projectId: project.id });
    await module.service.prepareTaskWorkspace({ task, project, agent: beDev });
    expect(asked).toContain(project.id);
    expect(module.service.forgeFor(project).provider).toBe('local');
    expect(() => module.service.forgeFor({ ...project, gitProvider: 'github' })).toThrow(
      /no forge is available/,
    );
  });
});

function findFiles(root: string, name: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry === name) found.push(path);
    }
  };
  walk(root);
  return found;
}
