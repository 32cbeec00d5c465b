/**
 * Who may change which task fields through PATCH (reference A §10.4), as a pure rule. Owners edit
 * their own fields; PMs only the wording and priority (a cell PM on its own team only) and never
 * the status; assignment, team, project, dependencies, sequence, plan and budget need the CEO,
 * the board or the auditor; the status override (god mode) is the CEO's (and the system's).
 */
import type { Role } from '../lifecycle/index.js';
import type { UpdateTaskInput } from './types.js';

export type UpdateField = keyof UpdateTaskInput;

/** Fields that only say why; anyone allowed to change something may add them. */
const ANNOTATIONS: readonly UpdateField[] = ['reason'];
export const PM_FIELDS: readonly UpdateField[] = ['title', 'description', 'acceptance_criteria', 'priority'];
export const OWNER_FIELDS: readonly UpdateField[] = [
  ...PM_FIELDS,
  'intends_to_touch',
  'adds_migration',
  'touches_shared',
];
export const PRIVILEGED_FIELDS: readonly UpdateField[] = [
  'assigned_to',
  'team',
  'project_id',
  'dependency_ids',
  'sequence',
  'plan',
  'budget_usd',
];
export const OVERRIDE_FIELDS: readonly UpdateField[] = ['status', 'force'];

/** Roles that may change privileged fields (the ASSIGN permission of the original). */
export const ASSIGN_ROLES = ['ceo', 'system', 'product_owner', 'head_marketing', 'auditor'] as const;
/** Roles that may override the status: the CEO's god mode, and the service itself. */
export const OVERRIDE_ROLES = ['ceo', 'system'] as const;

export interface UpdateContext {
  readonly role: Role;
  /** The caller is the task's assignee or creator. */
  readonly isOwner: boolean;
  /** The caller's team is the task's team. */
  readonly sameTeam: boolean;
}

/** Why the caller may not change `fields`, or null when every field is theirs to change. */
export function updateRefusal(fields: readonly UpdateField[], ctx: UpdateContext): string | null {
  const changing = fields.filter((field) => !ANNOTATIONS.includes(field));
  const outside = (allowed: readonly UpdateField[]) => changing.filter((field) => !allowed.includes(field));
  const list = (names: UpdateField[]) => names.join(', ');

  const overriding = changing.filter((field) => OVERRIDE_FIELDS.includes(field));
  if (overriding.length > 0 && !(OVERRIDE_ROLES as readonly string[]).includes(ctx.role)) {
    return `only the CEO may override the status (${list(overriding)})`;
  }
  if ((ASSIGN_ROLES as readonly string[]).includes(ctx.role)) return null;

  if (ctx.role === 'cell_pm' || ctx.role === 'main_pm') {
    if (ctx.role === 'cell_pm' && !ctx.sameTeam) return 'a cell PM may only edit tasks of its own team';
    const denied = outside(PM_FIELDS);
    return denied.length === 0 ? null : `a PM may only change ${list([...PM_FIELDS])}; not ${list(denied)}`;
  }
  if (!ctx.isOwner) return 'only the task’s owner, a PM, the board, the auditor or the CEO may edit it';
  const denied = outside(OWNER_FIELDS);
  if (denied.length === 0) return null;
  return `changing ${list(denied)} needs the CEO, the board or the auditor`;
}
