/**
 * Gaffer's private mirror of each project (a bare repository under `.mirrors/`): the only
 * repository that talks to the remote, and so the only git process that ever carries the token.
 * Agent clones are cloned from and fetch from the mirror (a local path, no credentials); a
 * commit is published by fetching the branch from the agent's clone into the mirror and pushing
 * it from there. The remote URL is passed on each call and stored nowhere.
 */
import { existsSync } from 'node:fs';
import {
  fetchRemote,
  type GitAuth,
  GitError,
  type GitRepo,
  type GitRunner,
  gitRaw,
  initRepo,
  type KeyedQueue,
  listBranches,
  openRepo,
  push,
  resolveRef,
} from '../../platform/git/index.js';
import { gitFailed, WorkspaceError } from './errors.js';
import { mirrorPath } from './paths.js';

export interface MirrorProject {
  id: string;
  slug: string;
  gitUrl: string;
  defaultBranch: string;
}

export type TokenLookup = (projectId: string) => Promise<string | null>;

const ALL_REFS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

export class Mirrors {
  constructor(
    private readonly runner: GitRunner,
    private readonly queue: KeyedQueue,
    private readonly root: string,
    private readonly tokenFor: TokenLookup,
  ) {}

  path(project: MirrorProject): string {
    return mirrorPath(this.root, project.slug);
  }

  /** The mirror for local reads (no credentials, no network). */
  repo(project: MirrorProject, signal?: AbortSignal): GitRepo {
    return openRepo(this.runner, this.path(project), { signal });
  }

  /** Creates the mirror if needed and brings every branch and tag up to date with the remote. */
  sync(project: MirrorProject, signal?: AbortSignal): Promise<GitRepo> {
    return this.exclusive(project, signal, 'fetching the project repository', async (mirror) => {
      await fetchRemote(mirror, { remote: project.gitUrl, refspecs: ALL_REFS, prune: true });
      if (await resolveRef(mirror, `refs/heads/${project.defaultBranch}`)) {
        await gitRaw(mirror, ['symbolic-ref', 'HEAD', `refs/heads/${project.defaultBranch}`]);
      }
      return this.repo(project, signal);
    });
  }

  /** Takes `branch` from an agent's clone into the mirror and pushes it to the remote. */
  publish(project: MirrorProject, from: string, branch: string, signal?: AbortSignal): Promise<void> {
    return this.exclusive(project, signal, `pushing ${branch}`, async (mirror) => {
      await fetchRemote(mirror, { remote: from, refspecs: [`+refs/heads/${branch}:refs/heads/${branch}`] });
      try {
        await push(mirror, {
          remote: project.gitUrl,
          refspecs: [`refs/heads/${branch}:refs/heads/${branch}`],
        });
      } catch (error) {
        if (error instanceof GitError && /rejected|non-fast-forward|fetch first/i.test(error.stderr)) {
          await fetchRemote(mirror, { remote: project.gitUrl, refspecs: ALL_REFS, prune: true });
          throw new WorkspaceError(
            'invalid_state',
            'push_rejected',
            `the remote's ${branch} has commits this workspace does not`,
            { branch },
            'bring the workspace up to date with the remote branch, then commit again',
          );
        }
        throw error;
      }
    });
  }

  /**
   * Makes every branch of `chain` exist on the remote, each missing one created at the tip of the
   * one before it; the first (the head rung) must exist already. Answers the branches it created.
   */
  ensureChain(project: MirrorProject, chain: readonly string[], signal?: AbortSignal): Promise<string[]> {
    return this.exclusive(project, signal, `creating ${chain.at(-1)}`, async (mirror) => {
      const tips = new Map((await listBranches(mirror)).map((b) => [b.name, b.sha]));
      const created: string[] = [];
      let from: string | null = null;
      for (const branch of chain) {
        let sha = tips.get(branch);
        if (!sha) {
          if (!from) {
            throw new WorkspaceError(
              'invalid_state',
              'base_missing',
              `branch ${branch} does not exist on the remote`,
              {
                branch,
              },
            );
          }
          sha = tips.get(from)!;
          await push(mirror, { remote: project.gitUrl, refspecs: [`${sha}:refs/heads/${branch}`] });
          await gitRaw(mirror, ['update-ref', `refs/heads/${branch}`, sha]);
          tips.set(branch, sha);
          created.push(branch);
        }
        from = branch;
      }
      return created;
    });
  }

  /** Deletes `branch` on the remote (and in the mirror); a branch already gone is fine. */
  deleteBranch(project: MirrorProject, branch: string, signal?: AbortSignal): Promise<void> {
    return this.exclusive(project, signal, `deleting ${branch}`, async (mirror) => {
      if (!(await resolveRef(mirror, `refs/heads/${branch}`))) return;
      await push(mirror, { remote: project.gitUrl, refspecs: [`:refs/heads/${branch}`] });
      await gitRaw(mirror, ['update-ref', '-d', `refs/heads/${branch}`]);
    });
  }

  /** Runs `work` on the mirror (created on first use) with the remote's credentials, one at a time. */
  private exclusive<T>(
    project: MirrorProject,
    signal: AbortSignal | undefined,
    what: string,
    work: (mirror: GitRepo) => Promise<T>,
  ): Promise<T> {
    const path = this.path(project);
    return this.queue.run(path, async () => {
      const token = await this.tokenFor(project.id);
      const auth: GitAuth | null = token ? { token, url: project.gitUrl } : null;
      try {
        if (!existsSync(path)) await initRepo(this.runner, path, { bare: true });
        return await work(openRepo(this.runner, path, { signal, auth }));
      } catch (error) {
        throw gitFailed(error, what);
      }
    });
  }
}
