import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CiStatus,
  type CreateReleaseInput,
  ForgeError,
  type Release,
} from '../../../platform/forge/index.js';
import { GitRunner, gitText, openRepo } from '../../../platform/git/index.js';
import {
  commitToRemote,
  recordingRunner,
  seedBareRemote,
  tempDirs,
} from '../../../platform/git/test-support.js';
import { type ExecuteInput, type ExecutorDeps, executeRelease } from './executor.js';

const IDENTITY = { name: 'Release Bot', email: 'release@example.test' };
const pkg = (version: string) => `{\n  "name": "shop",\n  "version": "${version}"\n}\n`;
const CHANGELOG = '# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-01-01\n\n- First.\n';

/** An in-memory forge: CI per sha (default for unknown shas), releases by tag. */
function memoryForge(defaultCi: CiStatus['conclusion'] = 'success') {
  const ci = new Map<string, CiStatus['conclusion']>();
  const releases = new Map<string, Release>();
  const created: CreateReleaseInput[] = [];
  return {
    ci,
    releases,
    created,
    defaultCi,
    async commitCiStatus(sha: string): Promise<CiStatus> {
      return { conclusion: ci.get(sha) ?? this.defaultCi, runUrl: null, runName: 'ci', headSha: sha };
    },
    async getRelease(tag: string) {
      return releases.get(tag) ?? null;
    },
    async createRelease(input: CreateReleaseInput): Promise<Release> {
      if (releases.has(input.tag)) throw new ForgeError('already_exists', `${input.tag} exists`);
      created.push(input);
      const release = {
        tag: input.tag,
        name: input.name,
        body: input.body,
        url: `https://forge.test/releases/${input.tag}`,
        sha: input.target,
      };
      releases.set(input.tag, release);
      return release;
    },
  };
}

describe('executeRelease against a real remote', () => {
  const dirs = tempDirs('gaffer-release-exec-');
  let runner: GitRunner;
  let remote: string;
  let forge: ReturnType<typeof memoryForge>;
  let steps: string[];

  const remoteGit = (args: string[]) => gitText(openRepo(runner, remote), args);

  beforeEach(async () => {
    runner = new GitRunner({ home: join(dirs.make(), 'home') });
    remote = await seedBareRemote(
      runner,
      join(dirs.make(), 'origin.git'),
      [
        {
          message: 'feat: first',
          files: { 'package.json': pkg('0.0.1'), 'src/version.ts': "export const V = '0.0.1';\n" },
        },
        {
          message: 'chore(release): 0.1.0',
          files: {
            'package.json': pkg('0.1.0'),
            'src/version.ts': "export const V = '0.1.0';\n",
            'CHANGELOG.md': CHANGELOG,
          },
        },
      ],
      'prod',
    );
    await commitToRemote(
      runner,
      remote,
      'staging',
      { 'hotfix.txt': 'staging only\n' },
      'fix: staging hotfix',
      'prod',
    );
    await commitToRemote(
      runner,
      remote,
      'dev',
      { 'src/feature.ts': 'export {};\n' },
      'feat: the feature',
      'prod',
    );
    forge = memoryForge();
    steps = [];
  });
  afterEach(() => dirs.cleanup());

  const deps = (): ExecutorDeps => ({
    runner,
    forge,
    progress: async (step) => {
      steps.push(step);
    },
  });

  const input = (changes: Partial<ExecuteInput> = {}): ExecuteInput => ({
    report: {
      version: '0.2.0',
      tag: 'v0.2.0',
      current_version: '0.1.0',
      canonical_files: ['CHANGELOG.md', 'package.json', 'src/version.ts'],
      release_notes: '### Added\n\n- the feature',
    },
    project: {
      gitUrl: remote,
      defaultBranch: 'dev',
      environments: [
        { name: 'dev', branch: 'dev' },
        { name: 'staging', branch: 'staging' },
        { name: 'prod', branch: 'prod' },
      ],
    },
    auth: null,
    workDir: join(dirs.make(), 'clone'),
    identity: IDENTITY,
    sign: null,
    ciWorkflow: 'ci.yml',
    ciPollMs: 10,
    ciTimeoutMs: 2_000,
    today: new Date('2026-09-01T12:00:00Z'),
    signal: new AbortController().signal,
    ...changes,
  });

  it('merges the ladder head first, bumps, commits as the release identity, waits for CI and publishes', async () => {
    const result = await executeRelease(deps(), input());
    expect(result).toMatchObject({ status: 'published', releaseUrl: 'https://forge.test/releases/v0.2.0' });
    const prodTip = await remoteGit(['rev-parse', 'prod']);
    expect(result.commitSha).toBe(prodTip);
    expect((await remoteGit(['log', '--first-parent', '--format=%s', 'prod'])).split('\n')).toEqual([
      'chore(release): 0.2.0',
      'Merge staging into prod for release 0.2.0',
      'Merge dev into prod for release 0.2.0',
      'chore(release): 0.1.0',
      'feat: first',
    ]);
    expect(await remoteGit(['log', '-1', '--format=%an <%ae>|%cn', 'prod'])).toBe(
      'Release Bot <release@example.test>|Release Bot',
    );
    expect(await remoteGit(['show', 'prod:package.json'])).toBe(pkg('0.2.0').trimEnd());
    expect(await remoteGit(['show', 'prod:src/version.ts'])).toBe("export const V = '0.2.0';");
    expect(await remoteGit(['show', 'prod:CHANGELOG.md'])).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-09-01\n\n### Added\n\n- the feature\n\n## [0.1.0] - 2026-01-01\n\n- First.',
    );
    expect(await remoteGit(['show', 'prod:hotfix.txt'])).toBe('staging only');
    expect(forge.created).toEqual([
      { tag: 'v0.2.0', target: prodTip, name: 'v0.2.0', body: '### Added\n\n- the feature' },
    ]);
    expect(steps).toEqual([
      'check_published',
      'clone',
      'promote',
      'bump',
      'head_ci',
      'commit',
      'push',
      'release_ci',
      'publish',
    ]);
  });

  it('aborts before committing anything when the head rung’s CI is red or unknown', async () => {
    const before = await remoteGit(['for-each-ref', '--format=%(refname) %(objectname)']);
    for (const conclusion of ['failure', 'unknown', 'pending'] as const) {
      const dev = await remoteGit(['rev-parse', 'dev']);
      forge.ci.set(dev, conclusion);
      const result = await executeRelease(deps(), input());
      expect(result.status).toBe('failed_head_ci');
      expect(result.detail).toContain(`CI of dev (the head rung) at ${dev.slice(0, 8)} is ${conclusion}`);
      expect(result.detail).toContain('Nothing was committed or pushed');
    }
    expect(await remoteGit(['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(before);
    expect(forge.created).toEqual([]);
  });

  it('does not publish on a red release commit, and a retry resumes without a second commit', async () => {
    forge.defaultCi = 'failure';
    forge.ci.set(await remoteGit(['rev-parse', 'dev']), 'success');
    const failed = await executeRelease(deps(), input());
    expect(failed.status).toBe('failed_release_ci');
    expect(failed.detail).toMatch(/CI of the release commit at [0-9a-f]{8} is failure; not published/);
    expect(forge.created).toEqual([]);
    const pushed = await remoteGit(['rev-parse', 'prod']);
    expect(failed.commitSha).toBe(pushed);

    forge.defaultCi = 'success';
    steps = [];
    const retried = await executeRelease(deps(), input());
    expect(retried).toMatchObject({ status: 'published', commitSha: pushed });
    expect(steps).not.toContain('commit');
    expect(await remoteGit(['rev-parse', 'prod'])).toBe(pushed);
    expect(await remoteGit(['log', '--format=%s', '--grep=^chore(release): 0.2.0$', 'prod'])).toBe(
      'chore(release): 0.2.0',
    );
    expect(forge.created).toHaveLength(1);
    expect(forge.created[0]!.body).toBe('### Added\n\n- the feature');
  });

  it('is a no-op for a version already published', async () => {
    forge.releases.set('v0.2.0', {
      tag: 'v0.2.0',
      name: 'v0.2.0',
      body: '',
      url: 'https://forge.test/r/1',
      sha: 'abc',
    });
    const before = await remoteGit(['rev-parse', 'prod']);
    const result = await executeRelease(deps(), input());
    expect(result).toMatchObject({ status: 'already_published', releaseUrl: 'https://forge.test/r/1' });
    expect(steps).toEqual(['check_published']);
    expect(await remoteGit(['rev-parse', 'prod'])).toBe(before);
  });

  it('stops on a ladder merge that conflicts', async () => {
    await commitToRemote(runner, remote, 'prod', { 'hotfix.txt': 'prod differs\n' }, 'fix: prod hotfix');
    const before = await remoteGit(['rev-parse', 'prod']);
    const result = await executeRelease(deps(), input());
    expect(result.status).toBe('failed_promotion');
    expect(result.detail).toBe(
      'merging staging into prod conflicts in hotfix.txt; nothing was committed or pushed',
    );
    expect(await remoteGit(['rev-parse', 'prod'])).toBe(before);
  });

  it('releases a single-branch project without promotion, and times out on CI that stays pending', async () => {
    forge.defaultCi = 'pending';
    forge.ci.set(await remoteGit(['rev-parse', 'prod']), 'success');
    const result = await executeRelease(
      deps(),
      input({ project: { gitUrl: remote, defaultBranch: 'prod', environments: null }, ciTimeoutMs: 60 }),
    );
    expect(result.status).toBe('failed_release_ci');
    expect(result.detail).toMatch(/is pending; it did not turn green within 0 s/);
    expect(steps).not.toContain('promote');
    expect(await remoteGit(['log', '-1', '--format=%s', 'prod'])).toBe('chore(release): 0.2.0');
  });

  it('passes the token only in git’s environment, never in argv', async () => {
    const { runner: recording, spawns } = recordingRunner(join(dirs.make(), 'home'));
    const token = 'tok-sEcReT-123456';
    const result = await executeRelease(
      { ...deps(), runner: recording },
      input({ auth: { token, url: remote } }),
    );
    expect(result.status).toBe('published');
    const cloned = spawns.find((spawn) => spawn.argv.includes('clone'))!;
    expect(Object.values(cloned.env).join('\n')).toContain(
      Buffer.from(`x-access-token:${token}`).toString('base64'),
    );
    for (const spawn of spawns) expect(spawn.argv.join(' ')).not.toContain(token);
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it('stops promptly when aborted while waiting for CI', async () => {
    forge.defaultCi = 'pending';
    forge.ci.set(await remoteGit(['rev-parse', 'dev']), 'success');
    const controller = new AbortController();
    const running = executeRelease(
      deps(),
      input({ signal: controller.signal, ciPollMs: 60_000, ciTimeoutMs: 600_000 }),
    );
    while (!steps.includes('release_ci')) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    controller.abort(new Error('shutting down'));
    await expect(running).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
