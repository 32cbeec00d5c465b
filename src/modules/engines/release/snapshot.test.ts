import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitStaged,
  createBranch,
  createTag,
  type GitRepo,
  GitRunner,
  gitText,
  initRepo,
  stage,
} from '../../../platform/git/index.js';
import { TEST_IDENTITY, tempDirs, writeFiles } from '../../../platform/git/test-support.js';
import { gatherSnapshot } from './snapshot.js';

const dirs = tempDirs('gaffer-release-snapshot-');
let repo: GitRepo;

async function commit(message: string, files: Record<string, string>): Promise<string> {
  writeFiles(repo.dir, files);
  await stage(repo);
  return commitStaged(repo, { message, author: TEST_IDENTITY });
}

const pkg = (version: string) => `{\n  "name": "shop",\n  "version": "${version}"\n}\n`;
const snap = (id: string, prevId: string) => JSON.stringify({ id, prevId });

beforeAll(async () => {
  const runner = new GitRunner({ home: join(dirs.make(), 'home') });
  repo = await initRepo(runner, join(dirs.make(), 'work'));
  await commit('feat: first', {
    'package.json': pkg('0.0.1'),
    'README.md': 'Install shop 0.1.0 from the registry.\nNot 10.1.0 though.\n',
    'db/migrations/meta/0000_snapshot.json': snap('a', '00000000-0000-0000-0000-000000000000'),
  });
  await commit('chore(release): 0.1.0', {
    'package.json': pkg('0.1.0'),
    'src/version.ts': "export const VERSION = '0.1.0';\n",
    'CHANGELOG.md': '# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-01-01\n- first\n',
  });
  await createTag(repo, { name: 'v0.1.0', target: 'HEAD' });
  await commit('fix: a bug', { 'src/a.ts': 'a\n' });
  const released = await commit('chore(release): 0.2.0', {
    'package.json': pkg('0.2.0'),
    'src/version.ts': "export const VERSION = '0.2.0';\n",
    'CHANGELOG.md': '# Changelog\n\n## [Unreleased]\n\n- Curated line.\n\n## [0.2.0] - 2026-02-01\n- a bug\n',
  });
  await createTag(repo, { name: 'v0.2.0', target: 'HEAD', message: 'v0.2.0', identity: TEST_IDENTITY });
  await createBranch(repo, 'prod', { startPoint: released });
  await commit('feat(api): new thing (#5)', {
    'docs/install.md': 'pin 0.2.0\n',
    'db/migrations/meta/0001_snapshot.json': snap('b', 'a'),
  });
  await createBranch(repo, 'topic', { checkout: true });
  await commit('fix: on a topic branch', { 'src/b.ts': 'b\n' });
  await gitText(repo, ['checkout', '--quiet', 'main']);
  await gitText(repo, ['merge', '--no-ff', '--no-edit', 'topic'], { identity: TEST_IDENTITY });
  await commit('Tidy things up\n\nBREAKING CHANGE: nobody reads this', {
    'db/migrations/meta/0001b_snapshot.json': snap('b2', 'a'),
  });
});

afterAll(() => dirs.cleanup());

describe('gatherSnapshot on a real repository', () => {
  it('reads every fact of a single-branch project from the last tag', async () => {
    const snapshot = await gatherSnapshot(repo, { headBranch: 'main', prodBranch: 'main', prodRef: null });
    expect(snapshot.lastTag).toBe('v0.2.0');
    expect(snapshot.headSha).toBe(await gitText(repo, ['rev-parse', 'HEAD']));
    // The merge commit left out (commits made within one second may list in either order).
    expect(snapshot.commits.map((commit) => commit.subject).sort()).toEqual([
      'Tidy things up',
      'feat(api): new thing (#5)',
      'fix: on a topic branch',
    ]);
    expect(snapshot.commits.find((commit) => commit.subject === 'Tidy things up')?.body).toBe(
      'BREAKING CHANGE: nobody reads this',
    );
    expect(snapshot.currentVersion).toBe('0.2.0');
    expect(snapshot.previousReleaseFiles).toEqual(['CHANGELOG.md', 'package.json', 'src/version.ts']);
    expect(snapshot.filesWithVersion).toEqual([
      'CHANGELOG.md',
      'docs/install.md',
      'package.json',
      'src/version.ts',
    ]);
    expect(snapshot.changelogText).toContain('- Curated line.');
    expect(snapshot.docMentions).toEqual([{ path: 'README.md', line: 1, version: '0.1.0' }]);
    expect(snapshot.migrationChains).toEqual([
      { dir: 'db/migrations', system: 'drizzle', migrations: 3, heads: ['b', 'b2'], unreadable: [] },
    ]);
  });

  it('takes a ladder’s last tag from prod, where releases are tagged, and counts what no tag reaches', async () => {
    // prod: the release commit of 0.3.0, merging main in, tagged there only.
    await gitText(repo, ['checkout', '--quiet', 'prod']);
    await gitText(repo, ['merge', '--no-ff', '--no-edit', 'main'], { identity: TEST_IDENTITY });
    await commit('chore(release): 0.3.0', {
      'package.json': pkg('0.3.0'),
      'src/version.ts': "export const VERSION = '0.3.0';\n",
    });
    await createTag(repo, { name: 'v0.3.0', target: 'HEAD' });
    await gitText(repo, ['checkout', '--quiet', 'main']);
    await commit('feat: after the release', { 'src/c.ts': 'c\n' });
    const snapshot = await gatherSnapshot(repo, {
      headBranch: 'main',
      prodBranch: 'prod',
      prodRef: 'refs/heads/prod',
    });
    expect(snapshot.lastTag).toBe('v0.3.0');
    expect(snapshot.commits.map((commit) => commit.subject)).toEqual(['feat: after the release']);
    expect(snapshot.previousReleaseFiles).toEqual(['package.json', 'src/version.ts']);
    // main's manifest still says 0.2.0 (the bump lives on prod until the next promotion): the tag wins.
    expect(snapshot.manifestVersion).toBe('0.2.0');
    expect(snapshot.currentVersion).toBe('0.3.0');
  });

  it('reads a repository with no tag and no release commit as a first release', async () => {
    const runner = new GitRunner({ home: join(dirs.make(), 'home') });
    const fresh = await initRepo(runner, join(dirs.make(), 'fresh'));
    writeFiles(fresh.dir, { VERSION: '0.0.0\n' });
    await stage(fresh);
    await commitStaged(fresh, { message: 'feat: hello', author: TEST_IDENTITY });
    const snapshot = await gatherSnapshot(fresh, { headBranch: 'main', prodBranch: 'main', prodRef: null });
    expect(snapshot).toMatchObject({
      lastTag: null,
      currentVersion: '0.0.0',
      previousReleaseFiles: null,
      filesWithVersion: ['VERSION'],
      changelogText: null,
      docMentions: [],
      migrationChains: [],
    });
    expect(snapshot.commits).toHaveLength(1);
  });
});
