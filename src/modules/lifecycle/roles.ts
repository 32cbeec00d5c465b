/**
 * Role groupings the lifecycle rules are written against: PMs, the board, the org-wide roles that
 * are exempt from team matching, and the roles bound to one task at a time.
 */
import type { Role } from '../../platform/http/auth/identity.js';

export type { Role };

export const PM_ROLES = ['cell_pm', 'main_pm'] as const satisfies readonly Role[];
/** The two-reviewer strategic board (the auditor has its own gateway route and rules). */
export const BOARD_ROLES = ['product_owner', 'head_marketing'] as const satisfies readonly Role[];

/** Delivery cells: the teams whose members are bound to their own cell's tasks. */
export const CELL_TEAMS = ['backend', 'frontend', 'ux_ui'] as const;
export type CellTeam = (typeof CELL_TEAMS)[number];
export const isCellTeam = (team: string): team is CellTeam =>
  (CELL_TEAMS as readonly string[]).includes(team);

/**
 * Roles that act on any team's tasks. Everyone else (developer, qa, documenter, cell_pm) may only
 * act on tasks of their own team.
 */
export const TEAM_EXEMPT_ROLES = [
  'main_pm',
  'ceo',
  'product_owner',
  'head_marketing',
  'auditor',
  'pr_reviewer',
  'system',
  'secretary',
  'prompter',
] as const satisfies readonly Role[];

export const isTeamExempt = (role: Role): boolean => (TEAM_EXEMPT_ROLES as readonly string[]).includes(role);

/** Whether `role` on `actorTeam` may act on a task of `taskTeam`. */
export function teamMatches(role: Role, actorTeam: string | null, taskTeam: string): boolean {
  if (isTeamExempt(role)) return true;
  return actorTeam !== null && actorTeam === taskTeam;
}

/**
 * Roles that may hold one task at a time: a claim is refused while the agent owns another task in
 * claimed/in_progress/verifying/blocked/paused or holds another task's claim. Coordinator PMs and
 * PR reviewers (gate claims) are exempt.
 */
export const SINGLE_ACTIVE_TASK_ROLES = ['developer', 'qa', 'documenter'] as const satisfies readonly Role[];

/** Owned-task states that count against the single-active-task rule. */
export const SINGLE_ACTIVE_BUSY_STATES = [
  'claimed',
  'in_progress',
  'verifying',
  'blocked',
  'paused',
] as const;

export const isSingleActiveRole = (role: Role): boolean =>
  (SINGLE_ACTIVE_TASK_ROLES as readonly string[]).includes(role);

/**
 * Roles that may claim a task pre-assigned to someone else (taking it over, e.g. a PM picking up a
 * revision). Everyone else gets `assigned_elsewhere`.
 */
export const CLAIM_TAKEOVER_ROLES = ['cell_pm', 'main_pm'] as const satisfies readonly Role[];

export const mayTakeOverClaim = (role: Role): boolean =>
  (CLAIM_TAKEOVER_ROLES as readonly string[]).includes(role);
