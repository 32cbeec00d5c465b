/**
 * One readiness pass of the release manager, always over the service's own repository (the
 * project whose slug is GAFFER_RELEASE_PROJECT): nothing while a proposal is open; else bring the
 * readiness checkout to the head rung's tip, gather the snapshot, read the gate (the head rung's CI
 * on that tip commit), assess, and open a held proposal when the gate is green and the threshold met.
 */

import { messageOf } from '../../../platform/message-of.js';
import type { CycleContext } from '../../board-programs/index.js';
import { effectiveLadder, type ProjectRow } from '../../projects/index.js';
import type { EngineDeps } from '../deps.js';
import { isoDate } from './changelog.js';
import { commitGate, type GateVerdict } from './gate.js';
import { openProposal, openReleaseProposal } from './proposals.js';
import { assessReadiness, type Readiness } from './report.js';
import { gatherSnapshot } from './snapshot.js';
import { type ReleaseDirs, syncReadinessCheckout } from './workdirs.js';

/** The last pass's verdict, for the CEO asking why there is no proposal. */
export interface ReadinessNote {
  at: string;
  proposed: boolean;
  reason: string;
}

export async function releaseReadinessSweep(
  deps: EngineDeps,
  dirs: ReleaseDirs,
  cycle: CycleContext,
  note: (note: ReadinessNote) => void,
): Promise<void> {
  const at = () => deps.clock.now().toISOString();
  const slug = deps.config.releaseProject;
  const project = await deps.projects.find(slug);
  if (!project) {
    const reason = `there is no project "${slug}" (GAFFER_RELEASE_PROJECT): nothing to release`;
    cycle.error(reason);
    note({ at: at(), proposed: false, reason });
    return;
  }
  cycle.examined(1);
  if (await openProposal(deps.db)) {
    note({ at: at(), proposed: false, reason: 'a release proposal is already open' });
    return;
  }
  const readiness = await assessProject(deps, dirs, project, cycle.signal);
  if (!readiness.propose) {
    note({ at: at(), proposed: false, reason: readiness.reason });
    return;
  }
  cycle.signal.throwIfAborted();
  const opening = await openReleaseProposal(deps, project, readiness.report);
  if (!opening.opened) {
    cycle.error(opening.reason);
    note({ at: at(), proposed: false, reason: opening.reason });
    return;
  }
  cycle.opened(opening.taskId);
  if (opening.notifyError) cycle.error(opening.notifyError);
  note({ at: at(), proposed: true, reason: `proposed ${readiness.report.version}` });
}

/** The readiness of the project's head rung (throws on git failures: the cycle records them). */
export async function assessProject(
  deps: EngineDeps,
  dirs: ReleaseDirs,
  project: ProjectRow,
  signal: AbortSignal,
): Promise<Readiness> {
  const ladder = effectiveLadder(project);
  const head = ladder[0]!.branch;
  const prod = ladder.at(-1)!.branch;
  const token = await deps.projects.gitToken(project.id);
  const repo = await syncReadinessCheckout(dirs.runner, {
    url: project.gitUrl,
    dir: dirs.readiness(project.slug),
    headBranch: head,
    auth: token ? { token, url: project.gitUrl } : null,
    signal,
  });
  const snapshot = await gatherSnapshot(repo, {
    headBranch: head,
    prodBranch: prod,
    prodRef: prod === head ? null : `refs/remotes/origin/${prod}`,
  });
  const gate = await readGate(deps, project, head, snapshot.headSha, signal);
  return assessReadiness(snapshot, gate, {
    minCommits: deps.config.releaseMinCommits,
    allowMajorFromZero: deps.config.releaseAllowMajorFromZero,
    today: isoDate(deps.clock.now()),
  });
}

async function readGate(
  deps: EngineDeps,
  project: ProjectRow,
  head: string,
  sha: string | null,
  signal: AbortSignal,
): Promise<GateVerdict> {
  const what = `${head} (the head rung)`;
  try {
    const forge = deps.workspaces.forgeFor(project);
    return await commitGate(forge, what, sha, deps.config.releaseCiWorkflow, signal);
  } catch (error) {
    signal.throwIfAborted();
    return {
      state: 'unknown',
      conclusion: 'error',
      sha,
      runUrl: null,
      detail: `CI of ${what} is unknown: ${messageOf(error)}`,
    };
  }
}
