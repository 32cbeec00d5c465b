/**
 * A named read for indexers (retrieval): the findings changed after a cursor, in (updated_at, id)
 * order, with their task's title and project. Times compare at millisecond precision, the
 * precision a JavaScript Date carries back as the cursor.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { tasks } from '../tasks/schema.js';
import { taskFindings } from './schema.js';

export interface FindingChange {
  id: string;
  taskId: string;
  taskTitle: string;
  projectId: string | null;
  origin: string;
  severity: string;
  status: string;
  file: string | null;
  line: number | null;
  criterion: string | null;
  expected: string;
  actual: string;
  fix: string;
  evidence: string | null;
  resolutionNote: string | null;
  updatedAt: Date;
}

const changedAt = sql`date_trunc('milliseconds', ${taskFindings.updatedAt})`;

export async function findingChangesSince(
  db: Db,
  after: { at: Date; ref: string } | null,
  limit: number,
): Promise<FindingChange[]> {
  const rows = await db
    .select({
      id: taskFindings.id,
      taskId: taskFindings.taskId,
      taskTitle: tasks.title,
      projectId: tasks.projectId,
      origin: taskFindings.origin,
      severity: taskFindings.severity,
      status: taskFindings.status,
      file: taskFindings.file,
      line: taskFindings.line,
      criterion: taskFindings.criterion,
      expected: taskFindings.expected,
      actual: taskFindings.actual,
      fix: taskFindings.fix,
      evidence: taskFindings.evidence,
      resolutionNote: taskFindings.resolutionNote,
      updatedAt: sql<string>`${changedAt}`,
    })
    .from(taskFindings)
    .innerJoin(tasks, eq(tasks.id, taskFindings.taskId))
    .where(
      after
        ? sql`(${changedAt}, ${taskFindings.id}::text) > (${after.at.toISOString()}::timestamptz, ${after.ref})`
        : undefined,
    )
    .orderBy(asc(changedAt), asc(sql`${taskFindings.id}::text`))
    .limit(limit);
  return rows.map((row) => ({ ...row, updatedAt: new Date(row.updatedAt) }));
}
