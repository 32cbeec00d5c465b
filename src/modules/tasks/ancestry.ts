/**
 * A named read for other modules: a task's ancestry (root first, the task itself excluded), for
 * the workspaces' branch names and bases. Four levels at most, so a few primary-key reads.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { tasks } from './schema.js';

export interface ChainTask {
  id: string;
  team: string;
  branchName: string | null;
  parentTaskId: string | null;
}

const MAX_ANCESTORS = 8;

export async function ancestorsOf(db: Db, task: Pick<ChainTask, 'parentTaskId'>): Promise<ChainTask[]> {
  const chain: ChainTask[] = [];
  let parentId = task.parentTaskId;
  while (parentId && chain.length < MAX_ANCESTORS) {
    const [parent] = await db
      .select({
        id: tasks.id,
        team: tasks.team,
        branchName: tasks.branchName,
        parentTaskId: tasks.parentTaskId,
      })
      .from(tasks)
      .where(eq(tasks.id, parentId));
    if (!parent) break;
    chain.unshift(parent);
    parentId = parent.parentTaskId;
  }
  return chain;
}
