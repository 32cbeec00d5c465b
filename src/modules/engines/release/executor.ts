/**
 * The release executor, fail-closed, in order (issue 8 item 4):
 *   1. already published (the forge has the release of the tag) → a no-op;
 *   2. a throwaway clone of prod; a `chore(release): X.Y.Z` commit an earlier attempt already
 *      pushed there is reused: straight to waiting for its CI (never a second commit);
 *   3. with a ladder, merge every rung above prod into the checkout, head first (none without one);
 *   4. write the version bump across the canonical file set and stamp the CHANGELOG;
 *   5. verify the head rung's CI on its tip: red or unknown aborts here, before any commit;
 *   6. commit `chore(release): X.Y.Z` as the release identity (GPG-signed when configured), push;
 *   7. wait for that commit's own CI to be green (poll interval and timeout configurable);
 *   8. publish through the forge's REST API, tag `vX.Y.Z` created by the release; a tag or release
 *      already there is not made again.
 * Every failure answers a `failed_*` outcome with its reason; nothing throws but an abort.
 */
import { rm } from 'node:fs/promises';
import { type Forge, ForgeError } from '../../../platform/forge/index.js';
import { type GitAuth, type GitIdentity, type GitRunner, resolveRef } from '../../../platform/git/index.js';
import { messageOf } from '../../../platform/message-of.js';
import { effectiveLadder, type LadderRung } from '../../projects/index.js';
import { waitForCommitCi } from './ci-wait.js';
import type { ExecuteStatus, ExecuteStep } from './execution-state.js';
import { commitGate } from './gate.js';
import {
  type CommitSigning,
  cloneProd,
  commitRelease,
  notesAtCommit,
  promoteLadder,
  pushedReleaseCommit,
  pushProd,
  writeVersionBump,
} from './release-checkout.js';
import type { ReleaseReport } from './report.js';

export type ExecuteOutcome = {
  status: Exclude<ExecuteStatus, 'running' | 'failed_interrupted'>;
  detail: string;
  commitSha: string | null;
  releaseUrl: string | null;
};

export interface ExecuteInput {
  report: Pick<ReleaseReport, 'version' | 'tag' | 'current_version' | 'canonical_files' | 'release_notes'>;
  project: { gitUrl: string; defaultBranch: string; environments: LadderRung[] | null };
  auth: GitAuth | null;
  /** The throwaway clone's directory (removed before and after). */
  workDir: string;
  identity: GitIdentity;
  sign: CommitSigning | null;
  ciWorkflow: string;
  ciPollMs: number;
  ciTimeoutMs: number;
  today: Date;
  signal: AbortSignal;
}

export interface ExecutorDeps {
  runner: GitRunner;
  forge: Pick<Forge, 'commitCiStatus' | 'getRelease' | 'createRelease'>;
  /** Records the step reached (and the release commit once made). */
  progress(step: ExecuteStep, detail: string, facts?: { commitSha?: string }): Promise<void>;
}

const outcome = (
  status: ExecuteOutcome['status'],
  detail: string,
  facts: { commitSha?: string | null; releaseUrl?: string | null } = {},
): ExecuteOutcome => ({
  status,
  detail,
  commitSha: facts.commitSha ?? null,
  releaseUrl: facts.releaseUrl ?? null,
});

export async function executeRelease(deps: ExecutorDeps, input: ExecuteInput): Promise<ExecuteOutcome> {
  try {
    return await runSteps(deps, input);
  } catch (error) {
    input.signal.throwIfAborted();
    return outcome('failed_error', `unexpected error: ${messageOf(error)}`);
  } finally {
    await rm(input.workDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function runSteps(deps: ExecutorDeps, input: ExecuteInput): Promise<ExecuteOutcome> {
  const { report, signal } = input;
  const { forge } = deps;
  const ladder = effectiveLadder(input.project);
  const head = ladder[0]!.branch;
  const prod = ladder.at(-1)!.branch;
  const rungs = ladder
    .slice(0, -1)
    .map((rung) => rung.branch)
    .filter((branch) => branch !== prod);

  await deps.progress('check_published', `looking for a published ${report.tag}`);
  const existing = await forge.getRelease(report.tag, signal);
  if (existing) {
    return outcome(
      'already_published',
      `${report.tag} is already published (${existing.url}); nothing to do`,
      {
        commitSha: existing.sha || null,
        releaseUrl: existing.url,
      },
    );
  }

  await deps.progress('clone', `cloning ${prod}`);
  const repo = await cloneProd(deps.runner, {
    url: input.project.gitUrl,
    dir: input.workDir,
    prodBranch: prod,
    auth: input.auth,
    signal,
  });
  let releaseSha = await pushedReleaseCommit(repo, report.version);
  let notes = releaseSha ? await notesAtCommit(repo, releaseSha, report.version) : null;

  if (!releaseSha) {
    if (rungs.length) {
      await deps.progress('promote', `merging ${rungs.join(' → ')} into ${prod}`);
      const promotion = await promoteLadder(repo, rungs, prod, report.version, input.identity);
      if (!promotion.ok) {
        return outcome(
          'failed_promotion',
          `merging ${promotion.branch} into ${prod} conflicts in ${promotion.files.slice(0, 10).join(', ')}; nothing was committed or pushed`,
        );
      }
    }

    await deps.progress('bump', `writing ${report.version} across ${report.canonical_files.length} file(s)`);
    const bump = await writeVersionBump(repo.dir, {
      version: report.version,
      fallbackFrom: report.current_version,
      files: report.canonical_files,
      fallbackNotes: report.release_notes,
      today: input.today,
    });
    notes = bump.notes;

    await deps.progress('head_ci', `verifying the CI of ${head}`);
    const headSha = await resolveRef(repo, `refs/remotes/origin/${head}`);
    const gate = await commitGate(forge, `${head} (the head rung)`, headSha, input.ciWorkflow, signal);
    if (gate.state !== 'green') {
      return outcome(
        'failed_head_ci',
        `${gate.detail}; the release needs it green. Nothing was committed or pushed`,
      );
    }

    await deps.progress('commit', `committing chore(release): ${report.version}`);
    releaseSha = await commitRelease(repo, report.version, input.identity, input.sign);
    await deps.progress('push', `pushing ${releaseSha.slice(0, 8)} to ${prod}`, { commitSha: releaseSha });
    try {
      await pushProd(repo, prod);
    } catch (error) {
      signal.throwIfAborted();
      return outcome('failed_error', `pushing the release commit to ${prod} failed: ${messageOf(error)}`, {
        commitSha: releaseSha,
      });
    }
  } else {
    await deps.progress('release_ci', `resuming: ${releaseSha.slice(0, 8)} is already on ${prod}`, {
      commitSha: releaseSha,
    });
  }

  await deps.progress('release_ci', `waiting for the CI of ${releaseSha.slice(0, 8)}`, {
    commitSha: releaseSha,
  });
  const ci = await waitForCommitCi(forge, releaseSha, {
    workflow: input.ciWorkflow,
    pollMs: input.ciPollMs,
    timeoutMs: input.ciTimeoutMs,
    signal,
  });
  if (!ci.ok) {
    return outcome('failed_release_ci', `${ci.detail}; not published. Approve again once it is green`, {
      commitSha: releaseSha,
    });
  }

  await deps.progress('publish', `publishing ${report.tag}`);
  return publish(forge, input, releaseSha, notes ?? report.release_notes);
}

async function publish(
  forge: ExecutorDeps['forge'],
  input: ExecuteInput,
  sha: string,
  notes: string,
): Promise<ExecuteOutcome> {
  const { tag } = input.report;
  try {
    const release = await forge.createRelease({ tag, target: sha, name: tag, body: notes }, input.signal);
    return outcome('published', `published ${tag} at ${sha.slice(0, 8)}: ${release.url}`, {
      commitSha: sha,
      releaseUrl: release.url,
    });
  } catch (error) {
    input.signal.throwIfAborted();
    if (error instanceof ForgeError && error.code === 'already_exists') {
      const existing = await forge.getRelease(tag, input.signal);
      if (existing) {
        return outcome('already_published', `${tag} was already published (${existing.url})`, {
          commitSha: sha,
          releaseUrl: existing.url,
        });
      }
    }
    return outcome('failed_error', `publishing ${tag} failed: ${messageOf(error)}`, { commitSha: sha });
  }
}
