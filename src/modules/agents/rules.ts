/**
 * Pure roster rules: which roles and teams an agent may be given, which agents are protected, and
 * who a blocked agent escalates to (reference A §1.4). No I/O; the service applies them.
 */

import type { Role, Team } from '../../platform/http/auth/identity.js';
import type { FieldProblem } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';

export const AGENT_SLUG = /^[a-z0-9-]{2,50}$/;

export const DELIVERY_CELLS = ['backend', 'frontend', 'ux_ui'] as const;
export type DeliveryCell = (typeof DELIVERY_CELLS)[number];
export const isDeliveryCell = (team: string | null | undefined): team is DeliveryCell =>
  (DELIVERY_CELLS as readonly string[]).includes(team ?? '');

/** The fixed identities: never created, retired, or given another role through the API. */
export const PROTECTED_ROLES: readonly Role[] = ['ceo', 'system'];
export const isProtectedRole = (role: string): boolean =>
  (PROTECTED_ROLES as readonly string[]).includes(role);

/** Roles that work inside one delivery cell and so need one as their team. */
export const CELL_ROLES: readonly Role[] = ['developer', 'qa', 'documenter', 'cell_pm'];

/** Runtime states an agent reports; `active` means it holds a task. */
export const AGENT_STATUSES = ['active', 'idle', 'offline'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Problems with a slug for a new agent: the shape, and never a UUID (ids and slugs share lookups). */
export function slugProblems(slug: string, field = 'body.slug'): FieldProblem[] {
  if (!AGENT_SLUG.test(slug)) return [{ field, message: 'must be 2–50 characters of a-z, 0-9 and -' }];
  if (isUuid(slug)) return [{ field, message: 'must not look like a UUID' }];
  return [];
}

/**
 * Problems with the role and team an agent would end up with. `previous` is set on an edit:
 * nobody becomes, or stops being, the CEO or the system agent, and those two keep their team.
 */
export function roleTeamProblems(
  role: Role,
  team: Team | null,
  previous?: { role: Role; team: string | null },
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (previous && isProtectedRole(previous.role)) {
    if (role !== previous.role) {
      problems.push({ field: 'body.role', message: `the ${previous.role} agent keeps its role` });
    }
    if (team !== previous.team) {
      problems.push({ field: 'body.team', message: `the ${previous.role} agent keeps its team` });
    }
    return problems;
  }
  if (isProtectedRole(role)) {
    problems.push({ field: 'body.role', message: `role ${role} cannot be given to an agent` });
  }
  if (team === 'system') {
    problems.push({ field: 'body.team', message: 'team system is reserved for the system agent' });
  }
  if (CELL_ROLES.includes(role) && !isDeliveryCell(team)) {
    problems.push({
      field: 'body.team',
      message: `role ${role} works in a delivery cell: team must be one of ${DELIVERY_CELLS.join(', ')}`,
    });
  }
  return problems;
}

/** One step of an escalation chain: a role, bound to the agent's own cell when `sameCell`. */
export interface EscalationStep {
  role: Role;
  sameCell: boolean;
}

const CELL_PM: EscalationStep = { role: 'cell_pm', sameCell: true };
const MAIN_PM: EscalationStep = { role: 'main_pm', sameCell: false };
const PRODUCT_OWNER: EscalationStep = { role: 'product_owner', sameCell: false };
const CEO: EscalationStep = { role: 'ceo', sameCell: false };

/**
 * Who an agent of `role` escalates to, nearest first: devs, QA and documenters → their cell PM,
 * cell PMs → the main PM, the main PM → the product owner, the board (and the human-driven
 * secretary and intake) → the CEO. The later steps are fall-backs when nearer ones are vacant
 * (retired). PR reviewers, the CEO and the system agent have no target.
 */
export function escalationChain(role: Role): EscalationStep[] {
  switch (role) {
    case 'developer':
    case 'qa':
    case 'documenter':
      return [CELL_PM, MAIN_PM, PRODUCT_OWNER, CEO];
    case 'cell_pm':
      return [MAIN_PM, PRODUCT_OWNER, CEO];
    case 'main_pm':
      return [PRODUCT_OWNER, CEO];
    case 'product_owner':
    case 'head_marketing':
    case 'auditor':
    case 'secretary':
    case 'prompter':
      return [CEO];
    case 'pr_reviewer':
    case 'ceo':
    case 'system':
      return [];
  }
}
