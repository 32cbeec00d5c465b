/**
 * The collision map of a task: its declared surface (globs, migration, shared code) and the
 * same-parent siblings in the same project whose surface collides with it. A read model over the
 * tasks table; the collision rule itself is in collisions.ts.
 */
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Platform } from '../../platform/context.js';
import { notFound } from '../../platform/http/errors.js';
import { tasks } from '../tasks/schema.js';
import {
  type CollisionSurface,
  findCollisions,
  hasCollisionSurface,
  MAX_LISTED_GLOBS,
} from './collisions.js';

export interface CollidingSibling extends CollisionSurface {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly branchName: string | null;
  readonly prNumber: number | null;
  readonly sequence: number;
  /** The sibling's first five declared globs. */
  readonly intendsToTouch: string[];
  /** Up to five of the sibling's globs that overlap the task's. */
  readonly overlap: string[];
}

export interface CollisionMap extends CollisionSurface {
  readonly taskId: string;
  readonly parentTaskId: string | null;
  readonly intendsToTouch: string[];
  readonly siblings: CollidingSibling[];
  /** More siblings collide than the ten listed. */
  readonly truncated: boolean;
}

const surfaceColumns = {
  id: tasks.id,
  parentTaskId: tasks.parentTaskId,
  projectId: tasks.projectId,
  intendsToTouch: tasks.intendsToTouch,
  addsMigration: tasks.addsMigration,
  touchesShared: tasks.touchesShared,
};

export class CollisionMapService {
  constructor(readonly platform: Platform) {}

  private get db() {
    return this.platform.database.db;
  }

  /** 404 `not_found` when the task does not exist. A root task has no siblings. */
  async forTask(taskId: string): Promise<CollisionMap> {
    const [task] = await this.db.select(surfaceColumns).from(tasks).where(eq(tasks.id, taskId)).limit(1);
    if (!task) throw notFound(`there is no task ${taskId}`);
    const { collisions, truncated } =
      task.parentTaskId && hasCollisionSurface(task)
        ? findCollisions(task, await this.candidates(task))
        : { collisions: [], truncated: false };
    return {
      taskId: task.id,
      parentTaskId: task.parentTaskId,
      intendsToTouch: task.intendsToTouch,
      addsMigration: task.addsMigration,
      touchesShared: task.touchesShared,
      siblings: collisions.map(({ sibling, overlap }) => ({
        id: sibling.id,
        title: sibling.title,
        status: sibling.status,
        branchName: sibling.branchName,
        prNumber: sibling.prNumber,
        sequence: sibling.sequence,
        intendsToTouch: sibling.intendsToTouch.slice(0, MAX_LISTED_GLOBS),
        addsMigration: sibling.addsMigration,
        touchesShared: sibling.touchesShared,
        overlap,
      })),
      truncated,
    };
  }

  /**
   * Same parent, not the task itself, same project (both without one counts as the same), not
   * cancelled (a cancelled sibling will never land), with a surface of its own.
   */
  private candidates(task: { id: string; parentTaskId: string | null; projectId: string | null }) {
    return this.db
      .select({
        id: tasks.id,
        title: tasks.title,
        status: tasks.status,
        branchName: tasks.branchName,
        prNumber: tasks.prNumber,
        priority: tasks.priority,
        sequence: tasks.sequence,
        intendsToTouch: tasks.intendsToTouch,
        addsMigration: tasks.addsMigration,
        touchesShared: tasks.touchesShared,
      })
      .from(tasks)
      .where(
        and(
          eq(tasks.parentTaskId, task.parentTaskId!),
          ne(tasks.id, task.id),
          task.projectId ? eq(tasks.projectId, task.projectId) : isNull(tasks.projectId),
          ne(tasks.status, 'cancelled'),
          or(
            sql`cardinality(${tasks.intendsToTouch}) > 0`,
            eq(tasks.addsMigration, true),
            eq(tasks.touchesShared, true),
          ),
        ),
      );
  }
}
