/**
 * A named read for indexers (retrieval): the tasks changed after a cursor, in (updated_at, id)
 * order, with the text worth searching (title, description, acceptance criteria, notes). Times
 * compare at millisecond precision, the precision a JavaScript Date carries back as the cursor.
 */
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { type AcceptanceCriterion, tasks } from './schema.js';

export interface TaskChange {
  id: string;
  title: string;
  description: string;
  acceptanceCriteria: AcceptanceCriterion[];
  notes: Record<string, unknown>;
  projectId: string | null;
  status: string;
  updatedAt: Date;
}

const changedAt = sql`date_trunc('milliseconds', ${tasks.updatedAt})`;

export async function taskChangesSince(
  db: Db,
  after: { at: Date; ref: string } | null,
  limit: number,
): Promise<TaskChange[]> {
  const rows = await db
    .select({
      id: tasks.id,
      title: tasks.title,
      description: tasks.description,
      acceptanceCriteria: tasks.acceptanceCriteria,
      notes: tasks.notes,
      projectId: tasks.projectId,
      status: tasks.status,
      updatedAt: sql<string>`${changedAt}`,
    })
    .from(tasks)
    .where(
      after
        ? sql`(${changedAt}, ${tasks.id}::text) > (${after.at.toISOString()}::timestamptz, ${after.ref})`
        : undefined,
    )
    .orderBy(asc(changedAt), asc(sql`${tasks.id}::text`))
    .limit(limit);
  return rows.map((row) => ({ ...row, updatedAt: new Date(row.updatedAt) }));
}
