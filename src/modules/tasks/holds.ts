/**
 * Claim holds of reference A §5, as pure functions over facts the service reads: the dependency
 * hold (a pending task waits for its dependencies) and the sibling-sequence bar (a task with
 * sequence N waits for lower-sequence siblings it depends on).
 */
import { isTerminal, type TaskStatus } from '../lifecycle/index.js';

export interface DependencyFacts {
  readonly id: string;
  readonly status: string;
}

/** Dependencies that still hold a pending task back (the non-terminal ones). */
export const openDependencies = <T extends DependencyFacts>(dependencies: readonly T[]): T[] =>
  dependencies.filter((dependency) => !isTerminal(dependency.status));

/** States in which a claim is subject to the holds (a fresh claim or a revision claim). */
export const HELD_CLAIM_STATES: readonly TaskStatus[] = ['pending', 'needs_revision'];

export interface SequenceFacts {
  readonly id: string;
  readonly sequence: number;
  readonly status: string;
  readonly dependencyIds: readonly string[];
  readonly completedDependencyIds: readonly string[];
}

/**
 * Lower-sequence siblings that hold `task` back. With `strict` (root-subtasks of a MegaTask
 * umbrella, which run in waves) every non-terminal lower sibling holds it. Otherwise only a lower
 * sibling that is a transitive predecessor through dependency edges (open or completed) — unless
 * the task has no edge to or from any sibling, in which case the strict rule applies. Equal
 * sequences run in parallel.
 */
export function sequenceBlockers<T extends SequenceFacts>(
  task: Omit<SequenceFacts, 'status'>,
  siblings: readonly T[],
  strict: boolean,
): T[] {
  if (task.sequence <= 0) return [];
  const others = siblings.filter((sibling) => sibling.id !== task.id);
  const lower = others.filter((sibling) => sibling.sequence < task.sequence && !isTerminal(sibling.status));
  if (lower.length === 0 || strict) return lower;

  const siblingIds = new Set(others.map((sibling) => sibling.id));
  const edgesOf = (facts: Omit<SequenceFacts, 'status'>) =>
    [...facts.dependencyIds, ...facts.completedDependencyIds].filter((id) => siblingIds.has(id));
  const pointsAtTask = (sibling: T) =>
    sibling.dependencyIds.includes(task.id) || sibling.completedDependencyIds.includes(task.id);
  const connected = edgesOf(task).length > 0 || others.some(pointsAtTask);
  if (!connected) return lower;

  const byId = new Map(others.map((sibling) => [sibling.id, sibling]));
  const predecessors = new Set<string>();
  const queue = edgesOf(task);
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (predecessors.has(id)) continue;
    predecessors.add(id);
    const sibling = byId.get(id);
    if (sibling) queue.push(...edgesOf(sibling));
  }
  return lower.filter((sibling) => predecessors.has(sibling.id));
}
