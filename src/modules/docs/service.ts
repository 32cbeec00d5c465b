/**
 * Documentation files of a project, written for a task: each write or delete is a commit of that
 * one file on the task's branch (the workspaces service commits it in the writer's worktree of the
 * task and publishes it), then recorded here with its commit and current content. Reads come from
 * the record; anyone authenticated reads. A refused write changes neither the repository nor the
 * record.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import type { KnowledgeCursor, KnowledgeItem } from '../optimal/index.js';
import type { ProjectRow } from '../projects/index.js';
import type { TaskView } from '../tasks/index.js';
import { type TaskFileInput, type TaskFileResult, workspaceTask } from '../workspaces/index.js';
import { type DocRefusal, type DocType, pathProblem, sizeProblem, writeProblem } from './rules.js';
import { docs } from './schema.js';

export interface DocsPorts {
  taskOf(id: string): Promise<TaskView | null>;
  projectOf(id: string): Promise<ProjectRow | null>;
  commitFile(input: TaskFileInput): Promise<TaskFileResult>;
  /** Called after each write or delete (retrieval's nudge). */
  onChanged?: (() => void) | undefined;
}

export interface DocWriter {
  id: string;
  slug: string;
  role: string;
  team: string | null;
}

export interface DocView {
  id: string;
  project_id: string;
  task_id: string;
  path: string;
  doc_type: string;
  title: string;
  branch: string;
  commit_sha: string;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

export interface NewDoc {
  task_id: string;
  path: string;
  doc_type: DocType;
  title: string;
  content: string;
}

export interface DocFilter {
  project_id?: string | undefined;
  task_id?: string | undefined;
  doc_type?: DocType | undefined;
  limit: number;
  offset: number;
}

type Row = typeof docs.$inferSelect;

const view = (row: Row): DocView => ({
  id: row.id,
  project_id: row.projectId,
  task_id: row.taskId,
  path: row.path,
  doc_type: row.docType,
  title: row.title,
  branch: row.branch,
  commit_sha: row.commitSha,
  created_by: row.createdBy,
  updated_by: row.updatedBy,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** A commit subject within the commit tool's 200-character limit. */
const commitSubject = (text: string) => (text.length > 190 ? `${text.slice(0, 189)}…` : text);

function refuse(problem: DocRefusal | null): void {
  if (!problem) return;
  throw new AppError(
    problem.status,
    problem.status === 403 ? 'doc_write_forbidden' : 'doc_path_invalid',
    problem.message,
    { rule: problem.rule },
  );
}

export class DocsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ports: DocsPorts,
  ) {}

  /** Creates or replaces the file at `path` on the task's branch. */
  async write(writer: DocWriter, input: NewDoc): Promise<{ status: 'created' | 'updated'; doc: DocView }> {
    refuse(pathProblem(input.path));
    refuse(sizeProblem(input.content));
    const task = await this.ports.taskOf(input.task_id);
    if (!task) throw notFound(`there is no task ${input.task_id}`);
    refuse(writeProblem(writer, input.path, task.team));
    const project = await this.requireProject(task);
    const made = await this.ports.commitFile({
      task: workspaceTask(task),
      project,
      agent: { slug: writer.slug, role: writer.role as TaskFileInput['agent']['role'], team: writer.team },
      path: input.path,
      content: input.content,
      message: commitSubject(`docs(${input.doc_type}): write ${input.path} — ${input.title.trim()}`),
    });
    const now = this.clock.now();
    const fields = {
      docType: input.doc_type,
      title: input.title.trim(),
      content: input.content,
      branch: made.branch,
      commitSha: made.sha,
      updatedBy: writer.slug,
      updatedAt: now,
    };
    const [existing] = await this.db
      .select()
      .from(docs)
      .where(and(eq(docs.taskId, task.id), eq(docs.path, input.path), isNull(docs.deletedAt)))
      .limit(1);
    const [row] = existing
      ? await this.db.update(docs).set(fields).where(eq(docs.id, existing.id)).returning()
      : await this.db
          .insert(docs)
          .values({
            id: randomUUID(),
            projectId: project.id,
            taskId: task.id,
            path: input.path,
            createdBy: writer.slug,
            createdAt: now,
            ...fields,
          })
          .returning()
          .catch((error: unknown) => {
            // Two first writes of one path at once: the file is committed; the later record retries.
            if (isUniqueViolation(error)) {
              throw conflict('doc_write_conflict', `${input.path} was just created by another write; retry`);
            }
            throw error;
          });
    this.ports.onChanged?.();
    return { status: existing ? 'updated' : 'created', doc: view(row!) };
  }

  async get(id: string): Promise<DocView & { content: string }> {
    const row = await this.liveRow(id);
    return { ...view(row), content: row.content };
  }

  async list(filter: DocFilter): Promise<{ docs: DocView[] }> {
    const conditions: SQL[] = [isNull(docs.deletedAt)];
    if (filter.project_id) conditions.push(eq(docs.projectId, filter.project_id));
    if (filter.task_id) conditions.push(eq(docs.taskId, filter.task_id));
    if (filter.doc_type) conditions.push(eq(docs.docType, filter.doc_type));
    const rows = await this.db
      .select()
      .from(docs)
      .where(and(...conditions))
      .orderBy(desc(docs.updatedAt), asc(docs.path))
      .limit(filter.limit)
      .offset(filter.offset);
    return { docs: rows.map(view) };
  }

  /** Removes the file from the task's branch (a commit) and tombstones the record. */
  async delete(writer: DocWriter, id: string): Promise<DocView> {
    const row = await this.liveRow(id);
    const task = await this.ports.taskOf(row.taskId);
    if (!task) throw notFound(`the task of doc ${id} is gone`);
    refuse(writeProblem(writer, row.path, task.team));
    const project = await this.requireProject(task);
    const made = await this.ports.commitFile({
      task: workspaceTask(task),
      project,
      agent: { slug: writer.slug, role: writer.role as TaskFileInput['agent']['role'], team: writer.team },
      path: row.path,
      content: null,
      message: commitSubject(`docs(${row.docType}): remove ${row.path}`),
    });
    const now = this.clock.now();
    const [gone] = await this.db
      .update(docs)
      .set({ deletedAt: now, updatedAt: now, commitSha: made.sha, updatedBy: writer.slug })
      .where(eq(docs.id, id))
      .returning();
    this.ports.onChanged?.();
    return view(gone!);
  }

  /** Knowledge-source pull: docs changed strictly after `after`, oldest first; deleted ones as tombstones. */
  async changedSince(after: KnowledgeCursor | null, limit: number): Promise<KnowledgeItem[]> {
    const rows = await this.db
      .select()
      .from(docs)
      .where(
        after
          ? sql`(${docs.updatedAt}, ${docs.id}) > (${after.at.toISOString()}::timestamptz, ${after.ref})`
          : undefined,
      )
      .orderBy(asc(docs.updatedAt), asc(docs.id))
      .limit(limit);
    return rows.map((row) => ({
      source: 'doc',
      ref: row.id,
      project_id: row.projectId,
      title: `${row.title} (${row.path})`,
      body: row.deletedAt ? '' : row.content,
      updated_at: row.updatedAt,
      deleted: row.deletedAt !== null,
      url: `/api/docs/${row.id}`,
    }));
  }

  private async liveRow(id: string): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(docs)
      .where(and(eq(docs.id, id), isNull(docs.deletedAt)))
      .limit(1);
    if (!row) throw notFound(`there is no doc ${id}`);
    return row;
  }

  private async requireProject(task: TaskView): Promise<ProjectRow> {
    const project = task.project_id ? await this.ports.projectOf(task.project_id) : null;
    if (!project) {
      throw new AppError(
        409,
        'no_repository',
        `task ${task.id} has no repository, so its docs have nowhere to live`,
        { task_id: task.id },
        'write the docs on a task of a project',
      );
    }
    return project;
  }
}
