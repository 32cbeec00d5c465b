/**
 * One CI-watch pass: read the latest CI conclusion of every watch target through its project's
 * forge (bounded concurrency), then open at most one fix task per red (repository, workflow),
 * within the per-cycle and per-repository caps, and tell the cell PMs. A read that fails is
 * recorded and treated as unknown — never as green, never as a reason to stop the sweep.
 */
import { mapBounded } from '../../../platform/bounded-pool.js';
import type { CiStatus } from '../../../platform/forge/index.js';
import { messageOf } from '../../../platform/message-of.js';
import { isDeliveryCell } from '../../agents/index.js';
import type { CycleContext } from '../../board-programs/index.js';
import { ciWatchProjects } from '../../projects/index.js';
import { SYSTEM_ACTOR } from '../../tasks/index.js';
import type { EngineDeps } from '../deps.js';
import { engineTaskInput, OriginationLedger, openOriginations } from '../origination.js';
import { cellPmNotice, fixTaskText, isRed } from './fix-task.js';
import { type WatchedProject, type WatchTarget, watchTargets } from './watch-set.js';

export const CI_WATCH_SOURCE = 'ci_watch';

export async function ciWatchSweep(deps: EngineDeps, cycle: CycleContext): Promise<void> {
  const { config } = deps;
  const { signal } = cycle;
  const targets = watchTargets(await optedInProjects(deps));
  const ledger = new OriginationLedger(
    { maxPerCycle: config.ciWatchMaxPerCycle, maxOpenPerRepo: config.ciWatchMaxOpenTasks },
    await openOriginations(deps.db, CI_WATCH_SOURCE),
  );
  // A target whose fix task is still open needs no read at all.
  const toRead = targets.filter((target) => ledger.verdict(target.repo, target.workflow) !== 'duplicate');
  cycle.examined(targets.length);
  const statuses = await mapBounded(
    toRead,
    config.ciWatchConcurrency,
    (target) => readCi(deps, target, cycle),
    signal,
  );
  for (const [index, target] of toRead.entries()) {
    const status = statuses[index];
    if (!status || !isRed(status)) continue;
    signal.throwIfAborted();
    const verdict = ledger.verdict(target.repo, target.workflow);
    if (verdict === 'cycle_cap' || verdict === 'repo_cap') {
      cycle.skippedByCap();
      continue;
    }
    if (verdict !== 'open') continue;
    await openFixTask(deps, cycle, target, status);
    ledger.opened(target.repo, target.workflow);
  }
}

function optedInProjects(deps: EngineDeps): Promise<WatchedProject[]> {
  return ciWatchProjects(deps.db);
}

/** The target's CI, or null (unknown) when the provider could not say. */
async function readCi(deps: EngineDeps, target: WatchTarget, cycle: CycleContext): Promise<CiStatus | null> {
  try {
    const forge = deps.workspaces.forgeFor(target.project);
    return await forge.branchCiStatus(target.branch, target.workflow, cycle.signal);
  } catch (error) {
    cycle.signal.throwIfAborted();
    cycle.error(`${target.project.slug}: CI unknown, ${messageOf(error)}`);
    return null;
  }
}

async function openFixTask(
  deps: EngineDeps,
  cycle: CycleContext,
  target: WatchTarget,
  status: CiStatus,
): Promise<void> {
  const mainPm = await deps.agents.mainPm();
  const text = fixTaskText(target, status);
  const task = await deps.tasks.create(
    engineTaskInput({
      ...text,
      projectId: target.project.id,
      mainPm: mainPm?.id ?? null,
      origin: { engine: CI_WATCH_SOURCE, repo: target.repo, key: target.workflow },
    }),
    SYSTEM_ACTOR,
  );
  cycle.opened(task.id);
  await notifyCellPms(deps, cycle, target, status, task.id);
}

/** The cell PM of every cell whose project shares the red target, once each; best effort. */
async function notifyCellPms(
  deps: EngineDeps,
  cycle: CycleContext,
  target: WatchTarget,
  status: CiStatus,
  taskId: string,
): Promise<void> {
  const cells = [...new Set(target.members.flatMap((member) => member.assignedCell ?? []))].filter(
    isDeliveryCell,
  );
  const notice = cellPmNotice(target, status);
  for (const cell of cells) {
    try {
      const pm = await deps.agents.cellPm(cell);
      if (!pm) continue;
      await deps.notifications.send(
        { type: 'alert', priority: 'high', recipients: [pm.id], ...notice, related_task_id: taskId },
        { id: SYSTEM_ACTOR.id, role: SYSTEM_ACTOR.role },
      );
    } catch (error) {
      cycle.error(`${target.project.slug}: the ${cell} cell PM was not notified, ${messageOf(error)}`);
    }
  }
}
