/**
 * The merge chain as pure rules (reference A §4, §12): a task branch starts from — and its pull
 * request targets — the nearest ancestor that has a branch, else the project's head rung. Leaf →
 * cell branch and cell → root branch are merged by a PM from awaiting_pm_review (the cell PM of the
 * task's own cell, or the main PM); the head rung, every other ladder rung, the default branch and
 * the project's protected branches take merges only from the CEO, from awaiting_ceo_approval.
 */
import { isTeamExempt, PM_ROLES, type Role } from '../lifecycle/index.js';
import { effectiveLadder, type LadderRung } from '../projects/index.js';

export interface ChainProject {
  defaultBranch: string;
  environments: LadderRung[] | null;
  protectedBranches: string[];
}

/** The branch pull requests of root tasks land on: the ladder's head rung (else the default branch). */
export function headBranch(project: ChainProject): string {
  return effectiveLadder(project)[0]!.branch;
}

/** Branches no agent may merge into: default branch, every ladder rung, declared protected branches. */
export function protectedBranchSet(project: ChainProject): Set<string> {
  return new Set([
    project.defaultBranch,
    ...effectiveLadder(project).map((rung) => rung.branch),
    ...project.protectedBranches,
  ]);
}

export interface ChainLink {
  id: string;
  branchName: string | null;
}

/**
 * Where a task's branch starts and its pull request lands: the branch of the nearest ancestor
 * that has one (`ancestors` root first, the task itself excluded), else the head rung.
 */
export function resolveBaseBranch(ancestors: readonly ChainLink[], project: ChainProject): string {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const branch = ancestors[i]!.branchName;
    if (branch) return branch;
  }
  return headBranch(project);
}

export interface MergeRequest {
  actor: { role: Role; team: string | null };
  task: { status: string; team: string };
  /** The branch the pull request would land on. */
  target: string;
  project: ChainProject;
}

export type MergeDecision =
  | { allowed: true; level: 'task_branch' | 'protected' }
  | {
      allowed: false;
      code: 'ceo_only' | 'invalid_state_for_merge' | 'not_authorized' | 'wrong_cell';
      flavor: 'not_authorized' | 'invalid_state';
      message: string;
      remediate: string;
    };

/** Whether `actor` may merge the task's pull request into `target` now. */
export function decideMerge(request: MergeRequest): MergeDecision {
  const { actor, task, target, project } = request;
  const toProtected = protectedBranchSet(project).has(target);
  if (toProtected && actor.role !== 'ceo') {
    return {
      allowed: false,
      code: 'ceo_only',
      flavor: 'not_authorized',
      message: `only the CEO merges into ${target}`,
      remediate: 'escalate the task to the CEO (awaiting_ceo_approval); the CEO approves and merges it',
    };
  }
  if (task.status === 'awaiting_ceo_approval') {
    if (actor.role === 'ceo') return { allowed: true, level: toProtected ? 'protected' : 'task_branch' };
    return {
      allowed: false,
      code: 'not_authorized',
      flavor: 'not_authorized',
      message: 'a task awaiting CEO approval is merged by the CEO only',
      remediate: 'wait for the CEO to approve or reject it',
    };
  }
  if (task.status !== 'awaiting_pm_review') {
    return {
      allowed: false,
      code: 'invalid_state_for_merge',
      flavor: 'invalid_state',
      message: `a task in ${task.status} is not ready to merge`,
      remediate: 'merge from awaiting_pm_review (PM) or awaiting_ceo_approval (CEO)',
    };
  }
  if (!(PM_ROLES as readonly string[]).includes(actor.role)) {
    return {
      allowed: false,
      code: 'not_authorized',
      flavor: 'not_authorized',
      message: `a ${actor.role} does not merge pull requests`,
      remediate: 'the owning PM merges it with complete',
    };
  }
  if (!isTeamExempt(actor.role) && actor.team !== task.team) {
    return {
      allowed: false,
      code: 'wrong_cell',
      flavor: 'not_authorized',
      message: `the ${task.team} cell's PM merges this task`,
      remediate: 'leave it to the PM of its cell',
    };
  }
  return { allowed: true, level: 'task_branch' };
}
