/**
 * A named read for indexers (retrieval): the findings changed after a cursor, in (updated_at, id)
 * order, with their task's title and project (the tasks module's `taskLabels`). Times compare at millisecond precision, the
 * precision a JavaScript Date carries back as the cursor.
 */
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { taskLabels } from '../tasks/index.js';
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
    .where(
      after
        ? sql`(${changedAt}, ${taskFindings.id}::text) > (${after.at.toISOString()}::timestamptz, ${after.ref})`
        : undefined,
    )
    .orderBy(asc(changedAt), asc(sql`${taskFindings.id}::text`))
    .limit(limit);
  const labels = await taskLabels(
    db,
    rows.map((row) => row.taskId),
  );
  return rows.map((row) => ({
    ...row,
    taskTitle: labels.get(row.taskId)?.title ?? '',
    projectId: labels.get(row.taskId)?.projectId ?? null,
    updatedAt: new Date(row.updatedAt),
  }));
}
