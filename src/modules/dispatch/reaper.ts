/**
 * The stale-claim reaper (reference A §6), a loop of its own that no pause holds. A claim is stale
 * when its heartbeat (else its claim time) is older than the timeout:
 * - an agent of this replica running on a task whose heartbeat is stale (counting from its own
 *   start, so a fresh respawn is spared) is stopped — SIGTERM, the grace, then SIGKILL;
 * - a stale claim (claimed / in progress) whose claimant is not running (any more) is released to
 *   pending with its owner kept, audited as the system's `release`, and the CEO is told.
 * Under a `dispatch` pause it still releases: the owner is kept, so nothing is lost, and a claim
 * nobody works on never holds the task (the original skipped the unclaim during a pause because
 * no respawn would follow; here the kill pause releases claims anyway, so the reaper agrees).
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { RELEASABLE_STATES } from '../lifecycle/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { RunningAgentInfo, RuntimeSupervisor } from '../runtime/index.js';
import { claimHeartbeats, staleClaims, type TasksService } from '../tasks/index.js';
import { alertCeo, releaseClaim } from './actions.js';

export interface ReaperDeps {
  db: Db;
  clock: Clock;
  tasks: TasksService;
  notifications: Pick<NotificationsService, 'send'>;
  supervisor: RuntimeSupervisor;
  staleAfterSeconds: number;
  killGraceSeconds: number;
}

export interface ReapReport {
  stopped: { agent_id: string; task_id: string | null }[];
  released: string[];
}

const later = (a: Date, b: Date | null) => (b && b > a ? b : a);

export async function reapStaleClaims(deps: ReaperDeps, signal: AbortSignal): Promise<ReapReport> {
  const report: ReapReport = { stopped: [], released: [] };
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.staleAfterSeconds * 1000);
  const stop = async (run: RunningAgentInfo) => {
    const exit = await deps.supervisor.stop(run.agentId, {
      graceful: true,
      graceSeconds: deps.killGraceSeconds,
    });
    if (exit) report.stopped.push({ agent_id: run.agentId, task_id: run.taskId });
  };

  // Agents of this replica whose task has not heard from them within the timeout.
  const runs = deps.supervisor.list().filter((run) => run.taskId !== null);
  const facts = await claimHeartbeats(
    deps.db,
    runs.map((run) => run.taskId!),
  );
  for (const run of runs) {
    if (signal.aborted) return report;
    const task = facts.get(run.taskId!);
    const heartbeat = task && task.claimant === run.agentId ? task.heartbeat : null;
    if (later(run.startedAt, heartbeat) < cutoff) await stop(run);
  }

  // Stale claims: released unless their claimant runs here and was (re)started within the timeout.
  const stale = await staleClaims(deps.db, RELEASABLE_STATES, cutoff);
  for (const task of stale) {
    if (signal.aborted) return report;
    const run = task.claimant ? deps.supervisor.list().find((r) => r.agentId === task.claimant) : undefined;
    if (run && run.startedAt >= cutoff) continue; // respawned lately: its first heartbeat is still due
    if (run) await stop(run);
    const since = new Date(task.heartbeat).toISOString();
    const reason = `stale claim: no heartbeat since ${since} (timeout ${deps.staleAfterSeconds} s)`;
    if (!(await releaseClaim(deps.tasks, task.id, reason))) continue;
    report.released.push(task.id);
    await alertCeo(deps.notifications, {
      subject: `Stale claim reaped: ${task.title}`,
      body: `Task ${task.id} had ${reason}. It is back in pending with its owner kept; the dispatcher respawns the owner.`,
      taskId: task.id,
    });
  }
  return report;
}
