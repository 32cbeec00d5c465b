import type { Platform } from '../../platform/context.js';
import { notFound } from '../../platform/http/errors.js';
import { collisionCandidates, taskCollisionSurface } from '../tasks/index.js';
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

export class CollisionMapService {
  constructor(readonly platform: Platform) {}

  private get db() {
    return this.platform.database.db;
  }

  /** 404 `not_found` when the task does not exist. A root task has no siblings. */
  async forTask(taskId: string): Promise<CollisionMap> {
    const task = await taskCollisionSurface(this.db, taskId);
    if (!task) throw notFound(`there is no task ${taskId}`);
    const { collisions, truncated } =
      task.parentTaskId && hasCollisionSurface(task)
        ? findCollisions(
            task,
            await collisionCandidates(this.db, { ...task, parentTaskId: task.parentTaskId }),
          )
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
}
