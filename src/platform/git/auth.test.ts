/**
 * Credentials over real smart HTTP (a loopback `git http-backend` that demands a token): the token
 * works for clone, fetch, ls-remote and push, yet never appears in any argv, in .git/config or in
 * an error; it is sent only to the remote's own origin; repository hooks never see it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitStaged, stage } from './commit.js';
import { GitError, secretForms } from './errors.js';
import { lsRemote, push, remoteBranchSha } from './remote.js';
import { cloneRepo, fetchRemote, withCall } from './repo.js';
import {
  type GitHttpServer,
  recordingRunner,
  seedBareRemote,
  startGitHttpServer,
  tempDirs,
  writeFiles,
} from './test-support.js';

const TOKEN = 'ghp_TestToken0123456789abcdef';
const dirs = tempDirs();
const servers: GitHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  dirs.cleanup();
});

async function setup() {
  const root = dirs.make();
  const { runner, spawns } = recordingRunner(join(root, 'home'));
  await seedBareRemote(runner, join(root, 'served', 'repo.git'));
  const server = await startGitHttpServer(join(root, 'served'), { token: TOKEN });
  servers.push(server);
  const url = server.urlFor('repo.git');
  return { root, runner, spawns, server, url, auth: { token: TOKEN, url } };
}

describe('a token-protected remote', () => {
  it('clones, fetches and pushes with the token, which stays out of argv and .git/config', async () => {
    const { root, runner, spawns, server, url, auth } = await setup();
    const repo = await cloneRepo(runner, { url, dir: join(root, 'clone') }, { auth });
    writeFiles(repo.dir, { 'feature.txt': 'new\n' });
    await stage(repo);
    const sha = await commitStaged(repo, {
      message: 'Feature',
      author: { name: 'dev', email: 'dev@x.test' },
    });
    await push(repo, { refspecs: ['HEAD:refs/heads/feature/x'] });
    await fetchRemote(repo, { prune: true });
    expect(await remoteBranchSha(repo, 'feature/x')).toBe(sha);
    expect((await lsRemote(repo, { heads: true })).map((r) => r.ref)).toEqual([
      'refs/heads/feature/x',
      'refs/heads/main',
    ]);

    const forms = secretForms(TOKEN);
    expect(server.authorizations.filter(Boolean).length).toBeGreaterThan(3);
    for (const spawn of spawns) {
      for (const form of forms) expect(spawn.argv.join(' ')).not.toContain(form);
    }
    const config = readFileSync(join(repo.dir, '.git', 'config'), 'utf8');
    for (const form of forms) expect(config).not.toContain(form);
    expect(config).toContain(`url = ${url}`);
  });

  it('is refused without the token, and the error carries no secret', async () => {
    const { root, runner, url } = await setup();
    const error = await cloneRepo(runner, { url, dir: join(root, 'anon') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).failure).toBe('exit');
    const wrong = await cloneRepo(
      runner,
      { url, dir: join(root, 'wrong') },
      { auth: { token: 'nope-wrong' } },
    ).catch((e: unknown) => e as GitError);
    expect(wrong).toBeInstanceOf(GitError);
    expect(JSON.stringify({ m: (wrong as GitError).message, s: (wrong as GitError).stderr })).not.toContain(
      'nope-wrong',
    );
  });

  it('sends the token only to the origin it was given for', async () => {
    const { root, runner, url, auth } = await setup();
    const repo = await cloneRepo(runner, { url, dir: join(root, 'clone') }, { auth });
    const otherRoot = join(root, 'other-served');
    mkdirSync(otherRoot);
    await seedBareRemote(runner, join(otherRoot, 'evil.git'));
    const other = await startGitHttpServer(otherRoot, { token: 'something-else' });
    servers.push(other);
    await expect(lsRemote(repo, { remote: other.urlFor('evil.git') })).rejects.toBeInstanceOf(GitError);
    expect(other.authorizations.every((value) => !value.includes(secretForms(TOKEN)[1]!))).toBe(true);
  });

  it('never runs a hook a repository carries, so no hook sees the token', async () => {
    const { root, runner, url, auth } = await setup();
    const repo = await cloneRepo(runner, { url, dir: join(root, 'clone') }, { auth });
    const marker = join(root, 'hook-ran');
    for (const hook of ['pre-push', 'pre-commit', 'post-checkout', 'reference-transaction']) {
      writeFileSync(join(repo.dir, '.git', 'hooks', hook), `#!/bin/sh\nenv > ${marker}\n`, { mode: 0o755 });
    }
    writeFiles(repo.dir, { 'x.txt': 'x\n' });
    await stage(repo);
    await commitStaged(repo, { message: 'With hooks present', author: { name: 'dev', email: 'dev@x.test' } });
    await push(withCall(repo, { auth }), { refspecs: ['HEAD:refs/heads/hooked'] });
    expect(existsSync(marker)).toBe(false);
  });
});
