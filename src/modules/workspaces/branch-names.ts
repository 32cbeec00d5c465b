/**
 * Task branch names (reference A §12): `<type>/<team>/<seg1>--<seg2>--…`, one segment per task of
 * the ancestry, root first, each the first 8 characters of the task id — so a developer leaf under
 * a cell task under a root is `feature/backend/1a2b3c4d--5e6f7a8b--9c0d1e2f` and a main-PM root
 * is `feature/main_pm/1a2b3c4d`. The 8-character id is also the commit prefix and worktree name.
 */

export const BRANCH_TYPES = ['feature', 'bug', 'chore', 'docs', 'hotfix'] as const;
export type BranchType = (typeof BRANCH_TYPES)[number];

/** Four levels at most: umbrella → root → cell → leaf. */
export const MAX_BRANCH_SEGMENTS = 4;

/** The short id: the first 8 characters of a task UUID, lowercased. */
export function id8(taskId: string): string {
  const short = taskId.slice(0, 8).toLowerCase();
  if (!/^[0-9a-f]{8}$/.test(short)) throw new Error(`not a task id: ${JSON.stringify(taskId)}`);
  return short;
}

export interface TaskBranchInput {
  /** The task's team (the directory under the type). */
  team: string;
  /** Ids of the task's ancestors, root first, ending with the task itself. */
  chain: readonly string[];
  type?: BranchType;
}

export function taskBranchName(input: TaskBranchInput): string {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(input.team))
    throw new Error(`not a team name: ${JSON.stringify(input.team)}`);
  if (input.chain.length === 0) throw new Error('a branch needs at least the task itself');
  const segments = input.chain.slice(-MAX_BRANCH_SEGMENTS).map(id8);
  return `${input.type ?? 'feature'}/${input.team}/${segments.join('--')}`;
}
