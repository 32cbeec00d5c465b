/**
 * Which same-parent siblings collide with a task, and how (pure). A sibling collides when any of
 * its declared globs overlaps one of the task's (see glob-overlap.ts) or when both add a
 * migration; touching shared code alone never collides. Colliding siblings come sorted by
 * (priority, sequence, id), at most ten, each listing at most five of its globs.
 */
import { type CompiledGlob, compileGlob, globsOverlap } from './glob-overlap.js';

export const MAX_SIBLINGS = 10;
export const MAX_LISTED_GLOBS = 5;

/** What a task declares it will touch. */
export interface CollisionSurface {
  readonly intendsToTouch: readonly string[];
  readonly addsMigration: boolean;
  readonly touchesShared: boolean;
}

export interface SiblingCandidate extends CollisionSurface {
  readonly id: string;
  readonly priority: number;
  readonly sequence: number;
}

export interface Collision<S extends SiblingCandidate> {
  readonly sibling: S;
  /** Up to five of the sibling's globs that overlap the task's, in the sibling's declared order. */
  readonly overlap: string[];
  readonly bothAddMigrations: boolean;
}

export function hasCollisionSurface(surface: CollisionSurface): boolean {
  return surface.intendsToTouch.length > 0 || surface.addsMigration || surface.touchesShared;
}

/** The order siblings are listed in: priority (0 first), then sequence, then id. */
export function compareSiblings(a: SiblingCandidate, b: SiblingCandidate): number {
  return a.priority - b.priority || a.sequence - b.sequence || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The colliding siblings in listing order, capped, and whether more collided than are listed. */
export function findCollisions<S extends SiblingCandidate>(
  task: CollisionSurface,
  candidates: readonly S[],
): { collisions: Collision<S>[]; truncated: boolean } {
  const mine = task.intendsToTouch.map(compileGlob);
  const collisions: Collision<S>[] = [];
  for (const sibling of [...candidates].sort(compareSiblings)) {
    if (!hasCollisionSurface(sibling)) continue;
    const collision = collide(mine, task.addsMigration, sibling);
    if (collision) collisions.push(collision);
  }
  return { collisions: collisions.slice(0, MAX_SIBLINGS), truncated: collisions.length > MAX_SIBLINGS };
}

function collide<S extends SiblingCandidate>(
  mine: readonly CompiledGlob[],
  iAddMigration: boolean,
  sibling: S,
): Collision<S> | null {
  const overlap = sibling.intendsToTouch.filter((pattern) => {
    const theirs = compileGlob(pattern);
    return mine.some((glob) => globsOverlap(glob, theirs));
  });
  const bothAddMigrations = iAddMigration && sibling.addsMigration;
  if (overlap.length === 0 && !bothAddMigrations) return null;
  return { sibling, overlap: overlap.slice(0, MAX_LISTED_GLOBS), bothAddMigrations };
}
