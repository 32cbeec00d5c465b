/**
 * Keeps the roster's runtime view in step with claims: the agent that takes a task's claim is
 * marked active on it; one whose claim ends (hand-off, release, completion) loses it as its
 * current task and goes idle — unless it has moved on to another task meanwhile.
 */
import type { Db } from '../../platform/db/client.js';
import { agentLeavesTask } from '../agents/index.js';
import type { TaskContext } from './context.js';

export async function syncClaimantState(
  ctx: TaskContext,
  db: Db,
  taskId: string,
  previous: string | null,
  next: string | null,
  now: Date,
): Promise<void> {
  if (previous === next) return;
  if (previous) await db.execute(agentLeavesTask(previous, taskId, now));
  if (next) await ctx.agents.recordState(next, { status: 'active', currentTaskId: taskId }, db);
}
