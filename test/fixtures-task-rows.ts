/**
 * Task and project rows written straight into the database, for the suites of the read models
 * (findings, collision map, kanban, work sessions) that must not depend on the task service.
 * Every required column gets a harmless default; tests override what they are about.
 */
import { randomUUID } from 'node:crypto';
import { projects } from '../src/modules/projects/schema.js';
import { tasks } from '../src/modules/tasks/schema.js';
import type { Db } from '../src/platform/db/client.js';

export type TaskRow = typeof tasks.$inferSelect;
export type TaskFields = Partial<typeof tasks.$inferInsert>;

let counter = 0;

export function taskValues(fields: TaskFields = {}): typeof tasks.$inferInsert {
  counter++;
  return {
    id: randomUUID(),
    title: `Task ${counter}`,
    description: 'A task row written directly by a test fixture.',
    acceptanceCriteria: [{ id: 'ac-1', text: 'It works.' }],
    taskType: 'code',
    nature: 'technical',
    complexity: 'low',
    team: 'backend',
    createdBy: 'ceo',
    ...fields,
  };
}

export async function insertTask(db: Db, fields: TaskFields = {}): Promise<TaskRow> {
  const [row] = await db.insert(tasks).values(taskValues(fields)).returning();
  return row!;
}

/** Many rows in chunks (one statement per chunk), for boards and caps. */
export async function insertTasks(db: Db, rows: TaskFields[], chunk = 1000): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(tasks).values(rows.slice(i, i + chunk).map(taskValues));
  }
}

export async function insertProject(db: Db, slug = `project-${randomUUID().slice(0, 8)}`): Promise<string> {
  const [row] = await db
    .insert(projects)
    .values({ slug, name: slug, gitUrl: `https://example.test/${slug}.git`, createdBy: 'ceo' })
    .returning({ id: projects.id });
  return row!.id;
}
