/**
 * The git side of a release, in a throwaway clone of the prod branch: finding a release commit an
 * earlier attempt already pushed, merging the ladder's rungs in, writing the version bump and the
 * CHANGELOG entry, and committing (optionally GPG-signed) and pushing. Credentials travel only in
 * git's environment (the clone's call options), never in argv or a remote URL.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cloneRepo,
  commitStaged,
  type GitAuth,
  type GitIdentity,
  type GitRepo,
  type GitRunner,
  gitRaw,
  mergeInto,
  push,
  stage,
} from '../../../platform/git/index.js';
import {
  CHANGELOG_PATH,
  isoDate,
  stampChangelog,
  unreleasedBody,
  versionHeading,
  versionSection,
} from './changelog.js';
import { releaseSubject } from './classify.js';
import { bumpFileText } from './manifests.js';
import { currentVersion } from './snapshot.js';

/** How far back on prod a release commit of an earlier attempt is looked for. */
export const RESUME_SEARCH_DEPTH = 50;

export async function cloneProd(
  runner: GitRunner,
  input: { url: string; dir: string; prodBranch: string; auth: GitAuth | null; signal: AbortSignal },
): Promise<GitRepo> {
  await rm(input.dir, { recursive: true, force: true });
  return cloneRepo(
    runner,
    { url: input.url, dir: input.dir, branch: input.prodBranch },
    { auth: input.auth, signal: input.signal },
  );
}

/** The sha of a commit on HEAD (prod) whose subject is exactly `chore(release): <version>`, or null. */
export async function pushedReleaseCommit(repo: GitRepo, version: string): Promise<string | null> {
  const out = await gitRaw(repo, [
    'log',
    '-z',
    `--max-count=${RESUME_SEARCH_DEPTH}`,
    '--format=%H%x1f%s',
    'HEAD',
    '--',
  ]);
  const wanted = releaseSubject(version);
  for (const record of out.stdout.toString('utf8').split('\0')) {
    const [sha, subject] = record.replace(/^\n/, '').split('\x1f');
    if (sha && subject?.trim() === wanted) return sha;
  }
  return null;
}

export type PromotionResult = { ok: true; merged: string[] } | { ok: false; branch: string; files: string[] };

/** Merges each rung above prod (head first) into the checkout; stops at the first conflict. */
export async function promoteLadder(
  repo: GitRepo,
  rungs: readonly string[],
  prodBranch: string,
  version: string,
  identity: GitIdentity,
): Promise<PromotionResult> {
  const merged: string[] = [];
  for (const branch of rungs) {
    const outcome = await mergeInto(repo, {
      source: `refs/remotes/origin/${branch}`,
      method: 'no-ff',
      message: `Merge ${branch} into ${prodBranch} for release ${version}`,
      identity,
    });
    if (outcome.outcome === 'conflict') return { ok: false, branch, files: outcome.files };
    merged.push(branch);
  }
  return { ok: true, merged };
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

export interface BumpResult {
  from: string;
  /** Files whose text changed, the CHANGELOG included. */
  changed: string[];
  /** The release notes stamped into the CHANGELOG. */
  notes: string;
}

/**
 * Moves every file of the canonical set from the checkout's current version to `version` and
 * stamps the CHANGELOG: the curated `[Unreleased]` body when the checkout has one, else `fallbackNotes`
 * (the report's generated summary).
 */
export async function writeVersionBump(
  dir: string,
  input: {
    version: string;
    fallbackFrom: string;
    files: readonly string[];
    fallbackNotes: string;
    today: Date;
  },
): Promise<BumpResult> {
  const from = (await currentVersion(dir)) ?? input.fallbackFrom;
  const changed: string[] = [];
  for (const path of input.files) {
    if (path === CHANGELOG_PATH) continue;
    const text = await readOptional(join(dir, path));
    if (text === null) continue;
    const bumped = bumpFileText(path, text, from, input.version);
    if (bumped !== text) {
      await writeFile(join(dir, path), bumped);
      changed.push(path);
    }
  }
  const changelog = (await readOptional(join(dir, CHANGELOG_PATH))) ?? '';
  const notes = unreleasedBody(changelog) ?? input.fallbackNotes;
  const entry = `${versionHeading(input.version, isoDate(input.today))}\n\n${notes}\n`;
  const stamped = stampChangelog(changelog, input.version, entry);
  if (stamped !== changelog) {
    await writeFile(join(dir, CHANGELOG_PATH), stamped);
    changed.push(CHANGELOG_PATH);
  }
  return { from, changed: changed.sort(), notes: versionSection(stamped, input.version) ?? notes };
}

export interface CommitSigning {
  keyId?: string | undefined;
  gnupgHome?: string | undefined;
}

/** Commits everything as `chore(release): <version>` by the release identity; answers the sha. */
export async function commitRelease(
  repo: GitRepo,
  version: string,
  identity: GitIdentity,
  sign: CommitSigning | null,
): Promise<string> {
  await stage(repo);
  return commitStaged(repo, {
    message: `${releaseSubject(version)}\n`,
    author: identity,
    ...(sign
      ? {
          sign: {
            ...(sign.keyId ? { keyId: sign.keyId } : {}),
            ...(sign.gnupgHome ? { gnupgHome: sign.gnupgHome } : {}),
          },
        }
      : {}),
    allowEmpty: true,
  });
}

/** Pushes HEAD to the prod branch (a fast-forward: refused if prod moved meanwhile). */
export async function pushProd(repo: GitRepo, prodBranch: string): Promise<void> {
  await push(repo, { refspecs: [`HEAD:refs/heads/${prodBranch}`] });
}

/** The release notes as the release commit's CHANGELOG has them (for a resumed publish). */
export async function notesAtCommit(repo: GitRepo, sha: string, version: string): Promise<string | null> {
  const out = await gitRaw(repo, ['show', `${sha}:${CHANGELOG_PATH}`], { okExitCodes: [128] });
  if (out.exitCode !== 0) return null;
  return versionSection(out.stdout.toString('utf8'), version);
}
