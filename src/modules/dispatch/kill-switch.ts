/**
 * What a `kill` pause of the `dispatch` scope does on this replica (every replica hears the pause
 * through the maintenance module's onChange): every agent it runs is stopped now — SIGTERM, the
 * kill grace, then SIGKILL — and the claims those agents held go back to pending with their owner
 * kept (the lifecycle's system `release`), so the work resumes where it was once the pause lifts.
 */
import type { Db } from '../../platform/db/client.js';
import { RELEASABLE_STATES } from '../lifecycle/index.js';
import type { RuntimeSupervisor } from '../runtime/index.js';
import { type TasksService, tasksClaimedBy } from '../tasks/index.js';
import { releaseClaim } from './actions.js';

export interface KillDeps {
  db: Db;
  tasks: TasksService;
  supervisor: RuntimeSupervisor;
  killGraceSeconds: number;
}

export interface KillReport {
  stopped: string[];
  released: string[];
}

export async function killRunningAgents(deps: KillDeps, reason: string): Promise<KillReport> {
  const runs = deps.supervisor.list();
  await deps.supervisor.stopAll({ graceful: true, graceSeconds: deps.killGraceSeconds });
  const agentIds = runs.map((run) => run.agentId);
  if (agentIds.length === 0) return { stopped: [], released: [] };
  const claims = await tasksClaimedBy(deps.db, agentIds, RELEASABLE_STATES);
  const released: string[] = [];
  for (const claim of claims) {
    if (await releaseClaim(deps.tasks, claim.id, reason)) released.push(claim.id);
  }
  return { stopped: agentIds, released };
}
