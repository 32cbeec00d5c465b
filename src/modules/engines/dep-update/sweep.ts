/**
 * One dependency-update pass: for every target (repository, command), in slug order, the cheap
 * checks first — an open task already standing for it, the per-cycle cap, the per-repository cap
 * — then the probe, one at a time. Lockfiles changed → one ordinary update task into the project.
 * Unchanged, a failing command, a timeout or a failed clone open nothing (failures are recorded on
 * the cycle); the sweep goes on with the next target. An abort stops it at once.
 */
import { messageOf } from '../../../platform/message-of.js';
import { agentRunLimits, agentSandbox } from '../../../platform/process/index.js';
import type { CycleContext } from '../../board-programs/index.js';
import { depUpdateProjects } from '../../projects/index.js';
import { splitShellWords } from '../../runtime/index.js';
import { SYSTEM_ACTOR } from '../../tasks/index.js';
import type { EngineDeps } from '../deps.js';
import { engineTaskInput, OriginationLedger, openOriginations } from '../origination.js';
import type { LockfileChange } from './changes.js';
import { type ProbeOutcome, probeLockfiles } from './probe.js';
import { probeRoot, removeLeftovers } from './probe-dir.js';
import { type DepUpdateProject, type DepUpdateTarget, depUpdateTargets } from './targets.js';
import { updateTaskText } from './update-task.js';

export const DEP_UPDATE_SOURCE = 'dep_update';

export async function depUpdateSweep(deps: EngineDeps, cycle: CycleContext): Promise<void> {
  const { config } = deps;
  const root = probeRoot(config.dataDir);
  // Only one pass runs at a time (the runner's lease): anything here is a crashed process's leftover.
  removeLeftovers(root);
  const targets = depUpdateTargets(await optedInProjects(deps));
  const ledger = new OriginationLedger(
    { maxPerCycle: config.depUpdateMaxPerCycle, maxOpenPerRepo: config.depUpdateMaxOpenTasks },
    await openOriginations(deps.db, DEP_UPDATE_SOURCE),
  );
  cycle.examined(targets.length);
  for (const target of targets) {
    cycle.signal.throwIfAborted();
    const verdict = ledger.verdict(target.repo, target.command);
    if (verdict === 'duplicate') continue;
    if (verdict === 'cycle_cap' || verdict === 'repo_cap') {
      cycle.skippedByCap();
      continue;
    }
    const outcome = await probe(deps, cycle, target, root);
    if (outcome?.kind === 'no_lockfiles') {
      cycle.error(`${target.project.slug}: no lockfile found in the clone; set dep_update_paths`);
    }
    if (outcome?.kind !== 'changed') continue;
    await openUpdateTask(deps, cycle, target, outcome.changes);
    ledger.opened(target.repo, target.command);
  }
}

function optedInProjects(deps: EngineDeps): Promise<DepUpdateProject[]> {
  return depUpdateProjects(deps.db);
}

/** The probe's outcome, or null when it could not answer (recorded on the cycle). */
async function probe(
  deps: EngineDeps,
  cycle: CycleContext,
  target: DepUpdateTarget,
  root: string,
): Promise<ProbeOutcome | null> {
  const { slug } = target.project;
  let argv: string[];
  try {
    argv = splitShellWords(target.command);
  } catch (error) {
    cycle.error(`${slug}: dep_update_command cannot be split into words: ${messageOf(error)}`);
    return null;
  }
  if (argv.length === 0) {
    cycle.error(`${slug}: dep_update_command has no words to run`);
    return null;
  }
  try {
    return await probeLockfiles({
      root,
      gitUrl: target.project.gitUrl.trim(),
      branch: target.branch,
      argv,
      paths: target.paths,
      token: await deps.projects.gitToken(target.project.id),
      timeoutMs: deps.config.depUpdateTimeoutSeconds * 1000,
      signal: cycle.signal,
      sandbox: agentSandbox(deps.config),
      networkAllow: [...deps.config.agentNetworkAllow, ...target.project.agentNetworkAllow],
      limits: agentRunLimits(deps.config),
    });
  } catch (error) {
    cycle.signal.throwIfAborted();
    cycle.error(`${slug}: ${messageOf(error)}; nothing opened`);
    return null;
  }
}

async function openUpdateTask(
  deps: EngineDeps,
  cycle: CycleContext,
  target: DepUpdateTarget,
  changes: readonly LockfileChange[],
): Promise<void> {
  const mainPm = await deps.agents.mainPm();
  const task = await deps.tasks.create(
    engineTaskInput({
      ...updateTaskText(target, changes),
      projectId: target.project.id,
      mainPm: mainPm?.id ?? null,
      origin: { engine: DEP_UPDATE_SOURCE, repo: target.repo, key: target.command },
    }),
    SYSTEM_ACTOR,
  );
  cycle.opened(task.id);
}
