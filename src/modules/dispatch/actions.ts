/**
 * The side effects the dispatcher's loops share: release a claim to pending with its owner kept
 * (the lifecycle's system `release`), stop the agents running on a task, and tell the CEO.
 */
import { SYSTEM_ID } from '../../platform/http/auth/index.js';
import { AppError } from '../../platform/http/errors.js';
import type { NotificationsService } from '../notifications/index.js';
import type { ExitInfo, RuntimeSupervisor } from '../runtime/index.js';
import { SYSTEM_ACTOR, type TasksService } from '../tasks/index.js';

/** Releases the task's claim to pending, owner kept; false when it was no longer releasable. */
export async function releaseClaim(tasks: TasksService, taskId: string, reason: string): Promise<boolean> {
  try {
    await tasks.transition(taskId, 'release', SYSTEM_ACTOR, { reason });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false; // it moved meanwhile (or is gone): nothing to release
    throw error;
  }
}

/** Stops every run of this replica working on `taskId` (and the claimant's run); their exits. */
export async function stopAgentsOn(
  supervisor: RuntimeSupervisor,
  taskId: string,
  claimantId: string | null,
  options: { graceful: boolean; graceSeconds: number },
): Promise<{ agentId: string; exit: ExitInfo }[]> {
  const agentIds = supervisor
    .list()
    .filter((run) => run.taskId === taskId || run.agentId === claimantId)
    .map((run) => run.agentId);
  const stopped = await Promise.all(
    agentIds.map(async (agentId) => ({ agentId, exit: await supervisor.stop(agentId, options) })),
  );
  return stopped.filter((entry): entry is { agentId: string; exit: ExitInfo } => entry.exit !== null);
}

/** An alert to the CEO about a task (never failing the caller). */
export async function alertCeo(
  notifications: Pick<NotificationsService, 'send'>,
  alert: { subject: string; body: string; taskId?: string | null },
): Promise<void> {
  await notifications
    .send(
      {
        type: 'alert',
        priority: 'high',
        recipients: ['ceo'],
        subject: alert.subject.slice(0, 200),
        body: alert.body,
        related_task_id: alert.taskId ?? null,
      },
      { id: SYSTEM_ID, role: 'system' },
    )
    .catch(() => undefined);
}
