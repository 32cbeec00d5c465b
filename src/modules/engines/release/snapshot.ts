/**
 * Gathers the readiness snapshot from a checkout whose HEAD is the head rung's tip: the last tag,
 * the commits since the last release (ONE `git log`, NUL-separated records, classified while the other
 * git calls still run), the current version from the manifests, the previous release commit's
 * files, tracked files holding the version, the CHANGELOG, documentation mentions of earlier
 * releases and the migration chains. Independent git calls run in parallel; the commit walk is the
 * only one whose cost grows with history (`git describe`, which walks all of it, is avoided).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { assertRef, type GitRepo, gitRaw, resolveRef } from '../../../platform/git/index.js';
import { CHANGELOG_PATH } from './changelog.js';
import type { DocMention } from './checks.js';
import { type CommitMessage, classifyCommits, RELEASE_SUBJECT } from './classify.js';
import { manifestVersion, standaloneVersionEre, VERSION_MANIFESTS } from './manifests.js';
import { MIGRATION_PATHSPECS, type MigrationFile, migrationChains } from './migrations.js';
import type { ReadinessSnapshot } from './snapshot-types.js';
import { byNewest, lastTagOf, listTagRefs, type TagRef } from './tags.js';

export interface SnapshotInput {
  headBranch: string;
  prodBranch: string;
  /** The prod rung's ref in the checkout (`refs/remotes/origin/prod`); null when head and prod are one branch. */
  prodRef: string | null;
}

/** Earlier releases the documentation-drift check looks for (the newest ones). */
export const DRIFT_RELEASES = 20;
/** Documents the drift check reads. */
export const DOC_PATHSPECS = [':(glob)README*', ':(glob)docs/**'];

/** Marks a promise started early as handled, so an earlier failure does not leave it unhandled. */
function early<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export async function gatherSnapshot(repo: GitRepo, input: SnapshotInput): Promise<ReadinessSnapshot> {
  const walkPromise = early(walkCommits(repo));
  const changelogPromise = early(readOptional(join(repo.dir, CHANGELOG_PATH)));
  const chainsPromise = early(readMigrationChains(repo));
  const [headSha, prodSha, tags, version] = await Promise.all([
    resolveRef(repo, 'HEAD'),
    input.prodRef ? resolveRef(repo, input.prodRef) : Promise.resolve(null),
    listTagRefs(repo),
    currentVersion(repo.dir),
  ]);
  const filesPromise = early(version ? filesHolding(repo, version) : Promise.resolve([]));
  const docsPromise = early(version ? docMentionsOf(repo, version, tags) : Promise.resolve([]));
  const walk = await walkPromise;
  const changes = classifyCommits([...walk.commits].reverse()); // CPU work while the greps run
  // Releases are tagged on prod: with a ladder the last tag is prod's, else HEAD's.
  const lastTag =
    input.prodRef && prodSha
      ? await lastTagOf(repo, input.prodRef, prodSha, tags)
      : await lastTagOf(repo, 'HEAD', headSha, tags, new Set(walk.boundary.map((commit) => commit.sha)));
  const lastTagRef = tags.find((tag) => tag.name === lastTag) ?? null;
  const lastTagSha = lastTagRef?.sha ?? null;
  const [previousReleaseFiles, filesWithVersion, changelogText, docMentions, chains] = await Promise.all([
    releaseCommitFiles(
      repo,
      lastTag ?? 'HEAD',
      walk.boundary.find((commit) => commit.sha === lastTagSha) ?? null,
    ),
    filesPromise,
    changelogPromise,
    docsPromise,
    chainsPromise,
  ]);
  return {
    headBranch: input.headBranch,
    prodBranch: input.prodBranch,
    headSha,
    lastTag,
    commits: walk.commits,
    changes,
    currentVersion: newestVersion(version, lastTagRef?.version ?? null),
    manifestVersion: version,
    previousReleaseFiles,
    filesWithVersion,
    changelogText,
    docMentions,
    migrationChains: chains,
  };
}

/** The higher of two versions (either may be missing). */
function newestVersion(a: string | null, b: string | null): string | null {
  if (!a || !b) return a ?? b;
  return semver.gte(a, b) ? a : b;
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** The first manifest (in VERSION_MANIFESTS order) that declares a version. */
export async function currentVersion(dir: string): Promise<string | null> {
  const texts = await Promise.all(VERSION_MANIFESTS.map((name) => readOptional(join(dir, name))));
  for (const [index, text] of texts.entries()) {
    const version = text === null ? null : manifestVersion(VERSION_MANIFESTS[index]!, text);
    if (version) return version;
  }
  return null;
}

export interface CommitWalk {
  /** Non-merge commits no tag reaches, newest first. */
  commits: CommitMessage[];
  /** The commits just outside the range (a release tag's commit among them, usually). */
  boundary: CommitMessage[];
}

/**
 * ONE `git log --no-merges --boundary HEAD --not --tags`: the commits no tag reaches — everything
 * since the last release (whose tag reaches all it released, ladder merges included) — and the
 * boundary commits just outside, a release tag's commit usually among them.
 */
export async function walkCommits(repo: GitRepo): Promise<CommitWalk> {
  const out = await gitRaw(repo, [
    'log',
    '--no-merges',
    '--boundary',
    '--no-color',
    '-z',
    '--format=%m%H%x1f%s%x1f%b',
    'HEAD',
    '--not',
    '--tags',
    '--',
  ]);
  const text = out.stdout.toString('utf8');
  const walk: CommitWalk = { commits: [], boundary: [] };
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\0', start);
    if (end < 0) end = text.length;
    const record = text.charCodeAt(start) === 10 ? text.slice(start + 1, end) : text.slice(start, end);
    start = end + 1;
    const first = record.indexOf('\x1f');
    if (first < 1) continue;
    const second = record.indexOf('\x1f', first + 1);
    const commit = {
      sha: record.slice(1, first),
      subject: record.slice(first + 1, second < 0 ? undefined : second),
      body: second < 0 ? '' : record.slice(second + 1).trim(),
    };
    (record[0] === '-' ? walk.boundary : walk.commits).push(commit);
  }
  return walk;
}

/**
 * The files the newest `chore(release): X.Y.Z` commit (by subject) changed; null when there is
 * none. Looked for on the last tag's commit first (known from the walk's boundary when it is
 * there), then the newest commit whose message has such a line, then up to 20 of them.
 */
export async function releaseCommitFiles(
  repo: GitRepo,
  from: string,
  tagged: CommitMessage | null,
): Promise<string[] | null> {
  let sha = tagged && RELEASE_SUBJECT.test(tagged.subject.trim()) ? tagged.sha : null;
  for (const depth of [1, 20]) {
    if (sha) break;
    const out = await gitRaw(repo, [
      'log',
      '--no-color',
      '-z',
      `--max-count=${depth}`,
      '--extended-regexp',
      '--grep=^chore\\(release\\):',
      '--format=%H%x1f%s',
      '--end-of-options',
      assertRef(from),
      '--',
    ]);
    const found = out.stdout
      .toString('utf8')
      .split('\0')
      .map((record) => record.replace(/^\n/, '').split('\x1f'))
      .find(([, subject]) => subject !== undefined && RELEASE_SUBJECT.test(subject.trim()));
    sha = found?.[0] ?? null;
    if (out.stdout.length === 0) break; // no candidate at all: a deeper look finds none either
  }
  if (!sha) return null;
  const files = await gitRaw(repo, [
    'diff-tree',
    '--no-commit-id',
    '--name-only',
    '-r',
    '-z',
    '--root',
    '--end-of-options',
    sha,
  ]);
  return files.stdout.toString('utf8').split('\0').filter(Boolean).sort();
}

/** Tracked files holding `version` as a standalone string. */
async function filesHolding(repo: GitRepo, version: string): Promise<string[]> {
  const out = await gitRaw(
    repo,
    ['grep', '-l', '-z', '-I', '-E', '-e', standaloneVersionEre(version), '--', '.'],
    {
      okExitCodes: [1],
    },
  );
  return out.stdout.toString('utf8').split('\0').filter(Boolean).sort();
}

/** Lines of README / docs naming one of our own earlier releases (its tags, older than `current`). */
async function docMentionsOf(repo: GitRepo, current: string, tags: readonly TagRef[]): Promise<DocMention[]> {
  const older = [
    ...new Set(
      [...tags]
        .sort(byNewest)
        .map((tag) => tag.version)
        .filter((version): version is string => version !== null && semver.lt(version, current)),
    ),
  ].slice(0, DRIFT_RELEASES);
  if (older.length === 0) return [];
  const args = ['grep', '-n', '-z', '-I', '-E'];
  for (const version of older) args.push('-e', standaloneVersionEre(version));
  const out = await gitRaw(repo, [...args, '--', ...DOC_PATHSPECS], { okExitCodes: [1] });
  const patterns = older.map((version) => ({ version, pattern: new RegExp(standaloneVersionEre(version)) }));
  const mentions: DocMention[] = [];
  for (const line of out.stdout.toString('utf8').split('\n')) {
    const [path, number, content] = line.split('\0');
    if (!path || !number || content === undefined) continue;
    const match = patterns.find(({ pattern }) => pattern.test(content));
    if (match) mentions.push({ path, line: Number(number), version: match.version });
  }
  return mentions;
}

async function readMigrationChains(repo: GitRepo) {
  const out = await gitRaw(repo, ['ls-files', '-z', '--', ...MIGRATION_PATHSPECS]);
  const paths = out.stdout.toString('utf8').split('\0').filter(Boolean);
  const files = await Promise.all(
    paths.map(async (path): Promise<MigrationFile | null> => {
      const text = await readOptional(join(repo.dir, path));
      return text === null ? null : { path, text };
    }),
  );
  return migrationChains(files.filter((file): file is MigrationFile => file !== null));
}
