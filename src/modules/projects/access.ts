/**
 * Who may create and change projects. Their commands run on the engines' machines, so only the CEO
 * and PMs may: the CEO and the main PM for any project, a cell PM only for projects assigned to its
 * own cell (reference C §3.5 `require_cell_access`). Projects with no cell are org-level: CEO and
 * main PM only. Pure.
 */
import type { Identity } from '../../platform/http/auth/identity.js';

export const PROJECT_MANAGER_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

/** Why `identity` may not manage a project of `cell`, or null when it may. */
export function projectAccessProblem(
  identity: Pick<Identity, 'role' | 'team'>,
  cell: string | null,
): string | null {
  if (identity.role === 'ceo' || identity.role === 'main_pm') return null;
  if (identity.role !== 'cell_pm') return 'only the CEO and PMs may create or change projects';
  if (!cell) return 'a cell PM may not change projects that belong to no cell';
  if (identity.team !== cell)
    return `a cell PM of ${identity.team || 'no cell'} may not change projects of the ${cell} cell`;
  return null;
}
