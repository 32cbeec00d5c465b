/** A named read for the evidence read model: the severity and state of every finding on a batch of tasks. */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { taskFindings } from './schema.js';

export interface TaskFinding {
  taskId: string;
  severity: string;
  status: string;
}

export async function findingsOnTasks(db: Db, ids: readonly string[]): Promise<TaskFinding[]> {
  if (ids.length === 0) return [];
  return db
    .select({ taskId: taskFindings.taskId, severity: taskFindings.severity, status: taskFindings.status })
    .from(taskFindings)
    .where(inArray(taskFindings.taskId, [...ids]));
}
