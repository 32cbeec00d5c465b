/** The git runner: scrubbed environment, typed errors with scrubbed stderr, abort and timeout kill git. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processGroupAlive } from '../process/group.js';
import { buildGitEnv } from './env.js';
import { GitError, scrubSecrets, secretForms } from './errors.js';
import { cloneRepo, initRepo, openRepo } from './repo.js';
import { GitRunner } from './runner.js';
import { recordingRunner, startSilentServer, tempDirs } from './test-support.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('the git environment', () => {
  it('inherits no GIT_* variable and never reads the user or system config', () => {
    const env = buildGitEnv({
      home: '/isolated',
      parent: { PATH: '/bin', GIT_DIR: '/elsewhere', GIT_WORK_TREE: '/x', HOME: '/root', SECRET: 'x' },
    });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_WORK_TREE).toBeUndefined();
    expect(env.SECRET).toBeUndefined();
    expect(env.HOME).toBe('/isolated');
    expect(env.GIT_CONFIG_GLOBAL).toBe('/dev/null');
    expect(env.GIT_CONFIG_NOSYSTEM).toBe('1');
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    expect(env.PATH).toBe('/bin');
  });

  it('puts a token only in a header scoped to the remote origin', () => {
    const env = buildGitEnv({
      home: '/h',
      auth: { token: 'tok-123', url: 'https://git.example.test/o/r.git' },
    });
    const count = Number(env.GIT_CONFIG_COUNT);
    const entries = Array.from({ length: count }, (_, i) => [
      env[`GIT_CONFIG_KEY_${i}`],
      env[`GIT_CONFIG_VALUE_${i}`],
    ]);
    const header = entries.find(([key]) => key?.endsWith('extraHeader'));
    expect(header?.[0]).toBe('http.https://git.example.test/.extraHeader');
    expect(header?.[1]).toBe(
      `Authorization: Basic ${Buffer.from('x-access-token:tok-123').toString('base64')}`,
    );
    expect(entries).toContainEqual(['core.hooksPath', '/dev/null']);
  });

  it('runs git in the scrubbed environment even when the parent sets GIT_DIR', async () => {
    const dir = dirs.make();
    const repo = await initRepo(new GitRunner({ home: dir }), join(dir, 'r'));
    process.env.GIT_DIR = '/nonexistent/elsewhere';
    try {
      const top = await repo.runner.text(['rev-parse', '--show-toplevel'], { cwd: repo.dir });
      expect(top).toBe(repo.dir);
    } finally {
      delete process.env.GIT_DIR;
    }
  });
});

describe('scrubSecrets', () => {
  it('removes the token, its Basic encoding, URL userinfo and Authorization values', () => {
    const forms = secretForms('s3cr3t-token');
    const text = `fatal: https://user:s3cr3t-token@host/repo ${forms[1]} Authorization: Basic abc s3cr3t-token`;
    const scrubbed = scrubSecrets(text, forms);
    expect(scrubbed).not.toContain('s3cr3t-token');
    expect(scrubbed).not.toContain(forms[1]);
    expect(scrubbed).toContain('https://***@host/repo');
    expect(scrubbed).toContain('Authorization: Basic ***');
  });
});

describe('GitRunner', () => {
  it('turns a failing git into a GitError with the exit code and stderr', async () => {
    const dir = dirs.make();
    const runner = new GitRunner({ home: dir });
    const error = await runner.run(['rev-parse', 'HEAD'], { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({ failure: 'exit', exitCode: 128 });
    expect((error as GitError).stderr).toMatch(/not a git repository/);
  });

  it('scrubs the call token from the error of a failed network call', async () => {
    const dir = dirs.make();
    const runner = new GitRunner({ home: dir });
    const error = await cloneRepo(
      runner,
      { url: 'https://s3cr3t-token@127.0.0.1:1/none.git', dir: join(dir, 'c') },
      { auth: { token: 's3cr3t-token' } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(JSON.stringify({ ...(error as GitError), message: (error as GitError).message })).not.toContain(
      's3cr3t-token',
    );
  });

  it('refuses a ref that git would read as an option', async () => {
    const dir = dirs.make();
    const repo = openRepo(new GitRunner({ home: dir }), dir);
    const { revParse } = await import('./repo.js');
    await expect(revParse(repo, '--output=/tmp/x')).rejects.toMatchObject({ failure: 'bad_argument' });
  });

  it('kills a hanging clone when its signal aborts, helpers included', async () => {
    const dir = dirs.make();
    const server = await startSilentServer();
    const { runner, spawns } = recordingRunner(dir);
    const controller = new AbortController();
    try {
      const cloning = cloneRepo(
        runner,
        { url: server.url, dir: join(dir, 'c') },
        { signal: controller.signal },
      );
      await waitFor(() => server.connections() > 0);
      controller.abort();
      await expect(cloning).rejects.toMatchObject({ failure: 'aborted' });
      const pid = spawns[0]!.pid!;
      expect(processGroupAlive(pid)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('kills a hanging fetch at its timeout', async () => {
    const dir = dirs.make();
    const server = await startSilentServer();
    const runner = new GitRunner({ home: dir });
    try {
      const repo = await initRepo(runner, join(dir, 'r'));
      const error = await runner
        .run(['fetch', server.url], { cwd: repo.dir, timeoutMs: 300 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ failure: 'timeout' });
      expect(existsSync(repo.dir)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses to start when the signal has already aborted', async () => {
    const dir = dirs.make();
    const { runner, spawns } = recordingRunner(dir);
    await expect(runner.run(['--version'], { cwd: dir, signal: AbortSignal.abort() })).rejects.toMatchObject({
      failure: 'aborted',
    });
    expect(spawns).toHaveLength(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
