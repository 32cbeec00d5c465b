import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRunner } from '../../../platform/git/index.js';
import { seedBareRemote, tempDirs } from '../../../platform/git/test-support.js';
import { cloneUrl, commandEnv, ProbeError, type ProbeRequest, probeLockfiles } from './probe.js';

const NODE = process.execPath;

/** `node -e <script> <args…>`: the probe's command, run in the clone. */
const node = (script: string, ...args: string[]) => [NODE, '-e', script, ...args];
const WRITE = "require('node:fs').writeFileSync(process.argv[1], process.argv[2])";

describe('probeLockfiles (real git, real commands)', () => {
  const dirs = tempDirs('gaffer-dep-probe-');
  let remote: string;
  let root: string;
  let scratch: string;

  beforeAll(async () => {
    const runner = new GitRunner({ home: dirs.make() });
    remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'), [
      {
        message: 'Initial commit',
        files: {
          'README.md': '# Shop\n',
          'pnpm-lock.yaml': 'lockfileVersion: 9\n',
          'crates/Cargo.lock': '# cargo\nversion = 3\n',
          'node_modules/x/package-lock.json': '{}\n',
        },
      },
    ]);
    root = join(dirs.make(), 'tmp', 'dep-update');
    scratch = dirs.make();
  });
  afterAll(() => dirs.cleanup());

  const request = (argv: string[], overrides: Partial<ProbeRequest> = {}): ProbeRequest => ({
    root,
    gitUrl: remote,
    branch: 'main',
    argv,
    paths: null,
    token: null,
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    ...overrides,
  });

  const probeDirsLeft = () => (existsSync(root) ? readdirSync(root) : []);

  it('reports the inferred lockfiles the command changed, with line counts, and removes the clone', async () => {
    const outcome = await probeLockfiles(
      request(
        node(
          `${WRITE}; require('node:fs').writeFileSync('README.md', 'changed')`,
          'crates/Cargo.lock',
          'a\nb\n',
        ),
      ),
    );
    expect(outcome).toEqual({
      kind: 'changed',
      changes: [{ path: 'crates/Cargo.lock', kind: 'modified', insertions: 2, deletions: 2 }],
    });
    expect(probeDirsLeft()).toEqual([]);
  });

  it('answers unchanged when only other files change', async () => {
    expect(await probeLockfiles(request(node(WRITE, 'README.md', 'changed')))).toEqual({ kind: 'unchanged' });
  });

  it('watches explicit paths only, a lockfile the command creates included', async () => {
    const paths = ['deps/lock.json'];
    expect(await probeLockfiles(request(node(WRITE, 'pnpm-lock.yaml', 'x'), { paths }))).toEqual({
      kind: 'unchanged',
    });
    const script =
      "require('node:fs').mkdirSync('deps'); require('node:fs').writeFileSync('deps/lock.json', '{}')";
    expect(await probeLockfiles(request(node(script), { paths }))).toEqual({
      kind: 'changed',
      changes: [{ path: 'deps/lock.json', kind: 'added', insertions: null, deletions: null }],
    });
  });

  it('does not run the command when there is no lockfile to watch', async () => {
    const bare = await seedBareRemote(new GitRunner({ home: dirs.make() }), join(dirs.make(), 'plain.git'), [
      { message: 'Initial commit', files: { 'package.json': '{}\n' } },
    ]);
    const marker = join(scratch, 'ran-plain');
    const outcome = await probeLockfiles(request(node(WRITE, marker, 'ran'), { gitUrl: bare }));
    expect(outcome).toEqual({ kind: 'no_lockfiles' });
    expect(existsSync(marker)).toBe(false);
  });

  it('gives the command only PATH, LANG and a HOME and TMPDIR inside the probe directory', async () => {
    const seen = join(scratch, 'env.json');
    process.env.GAFFER_PROBE_TEST_SECRET = 'leak';
    try {
      const script = "require('node:fs').writeFileSync(process.argv[1], JSON.stringify(process.env))";
      await probeLockfiles(request(node(script, seen), { token: 'tok3n-never-seen' }));
    } finally {
      delete process.env.GAFFER_PROBE_TEST_SECRET;
    }
    const env = JSON.parse(readFileSync(seen, 'utf8')) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR']);
    expect(env.HOME!.startsWith(root)).toBe(true);
    expect(env.TMPDIR!.startsWith(root)).toBe(true);
    expect(JSON.stringify(env)).not.toContain('tok3n');
  });

  it('fails clearly on a failing command, a timeout and a clone failure, and still removes the directory', async () => {
    const failing = probeLockfiles(
      request(
        node(`${WRITE}; console.error('registry unreachable'); process.exit(3)`, 'pnpm-lock.yaml', 'x'),
      ),
    );
    await expect(failing).rejects.toThrow(ProbeError);
    await expect(failing).rejects.toThrow('the command exited with code 3: registry unreachable');

    const slow = probeLockfiles(request(node('setInterval(() => {}, 1000)'), { timeoutMs: 1_000 }));
    await expect(slow).rejects.toThrow('the command timed out after 1 s and was killed');

    const missing = probeLockfiles(request(node(WRITE, 'x', 'y'), { gitUrl: join(scratch, 'nowhere.git') }));
    await expect(missing).rejects.toThrow(/^the clone of main failed: git clone failed/);
    expect(probeDirsLeft()).toEqual([]);
  });

  it('removes read-only folders the command leaves behind, and stops on abort', async () => {
    const script = `
      const fs = require('node:fs');
      fs.mkdirSync('cache/pkg', { recursive: true });
      fs.writeFileSync('cache/pkg/mod.go', 'x');
      fs.chmodSync('cache/pkg', 0o500);
      fs.chmodSync('cache', 0o500);
    `;
    await probeLockfiles(request(node(script)));
    expect(probeDirsLeft()).toEqual([]);

    const controller = new AbortController();
    const started = join(scratch, 'started');
    const hung = probeLockfiles(
      request(node(`${WRITE}; setInterval(() => {}, 1000)`, started, 'yes'), { signal: controller.signal }),
    );
    await expect.poll(() => existsSync(started), { timeout: 15_000 }).toBe(true);
    controller.abort(new Error('kill pause'));
    await expect(hung).rejects.toThrow('kill pause');
    expect(probeDirsLeft()).toEqual([]);
  });
});

describe('cloneUrl and commandEnv', () => {
  it('clones a local path through a file:// URL and leaves other URLs alone', () => {
    expect(cloneUrl('/srv/git/shop.git')).toBe('file:///srv/git/shop.git');
    expect(cloneUrl('https://github.com/acme/shop.git')).toBe('https://github.com/acme/shop.git');
    expect(cloneUrl('file:///srv/git/shop.git')).toBe('file:///srv/git/shop.git');
  });

  it('builds the environment from nothing but PATH and LANG', () => {
    expect(
      commandEnv('/p', { PATH: '/bin', LANG: 'de_DE.UTF-8', GAFFER_AUTH_SECRET: 'x', HOME: '/root' }),
    ).toEqual({ PATH: '/bin', HOME: '/p/home', LANG: 'de_DE.UTF-8', TMPDIR: '/p/tmp' });
    expect(commandEnv('/p', {})).toMatchObject({ PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' });
  });
});
