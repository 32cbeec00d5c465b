/**
 * Where the release manager works: `<dataDir>/release/<project>/readiness` (a checkout of the
 * head rung, fetched each pass and reused) and `<dataDir>/release/<project>/execute` (the
 * executor's throwaway clone of prod), with a git runner whose HOME is `<dataDir>/release/.home`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cloneRepo,
  fetchRemote,
  type GitAuth,
  type GitRepo,
  GitRunner,
  gitRaw,
  openRepo,
} from '../../../platform/git/index.js';

const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export interface ReleaseDirs {
  runner: GitRunner;
  readiness(slug: string): string;
  execute(slug: string): string;
}

export function releaseDirs(dataDir: string): ReleaseDirs {
  const root = join(dataDir, 'release');
  const home = join(root, '.home');
  mkdirSync(home, { recursive: true });
  const projectDir = (slug: string) => {
    if (!SLUG.test(slug)) throw new Error(`not a project slug usable in a path: ${JSON.stringify(slug)}`);
    return join(root, slug);
  };
  return {
    runner: new GitRunner({ home }),
    readiness: (slug) => join(projectDir(slug), 'readiness'),
    execute: (slug) => join(projectDir(slug), 'execute'),
  };
}

export interface ReadinessCheckoutInput {
  url: string;
  dir: string;
  headBranch: string;
  auth: GitAuth | null;
  signal: AbortSignal;
}

/**
 * The readiness checkout at the head rung's tip: cloned the first time, then fetched (every branch
 * as `refs/remotes/origin/*`, tags, pruned) and checked out detached. A checkout that cannot be
 * brought up to date is cloned afresh once.
 */
export async function syncReadinessCheckout(
  runner: GitRunner,
  input: ReadinessCheckoutInput,
): Promise<GitRepo> {
  const call = { auth: input.auth, signal: input.signal };
  if (existsSync(join(input.dir, '.git'))) {
    try {
      return await update(openRepo(runner, input.dir, call), input);
    } catch (error) {
      input.signal.throwIfAborted();
      void error;
    }
  }
  await rm(input.dir, { recursive: true, force: true });
  const repo = await cloneRepo(runner, { url: input.url, dir: input.dir, branch: input.headBranch }, call);
  return update(repo, input);
}

async function update(repo: GitRepo, input: ReadinessCheckoutInput): Promise<GitRepo> {
  await fetchRemote(repo, {
    remote: input.url,
    refspecs: ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'],
    prune: true,
  });
  await gitRaw(repo, [
    'checkout',
    '--force',
    '--quiet',
    '--detach',
    `refs/remotes/origin/${input.headBranch}`,
    '--',
  ]);
  return repo;
}
