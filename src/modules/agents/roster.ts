/**
 * The default company, seeded on first start: the CEO, the board, the main PM, an intake
 * interviewer, a secretary, two org-wide PR reviewers, and three delivery cells (backend,
 * frontend, ux_ui) of two developers, QA, a cell PM, a documenter and a PR reviewer each.
 * UUIDs are fixed (00000000-0000-0000-00TT-0000000000NN: TT = cell 01/02/03 or board 04).
 */
import type { Role, Team } from '../../platform/http/auth/identity.js';

export interface RosterEntry {
  id: string;
  slug: string;
  name: string;
  role: Role;
  team: Team | null;
}

const uuid = (group: number, member: number) =>
  `00000000-0000-0000-${String(group).padStart(4, '0')}-${String(member).padStart(12, '0')}`;

const CELLS = [
  { team: 'backend', prefix: 'be', group: 1, label: 'Backend' },
  { team: 'frontend', prefix: 'fe', group: 2, label: 'Frontend' },
  { team: 'ux_ui', prefix: 'ux', group: 3, label: 'UX/UI' },
] as const;

const cellMembers = (cell: (typeof CELLS)[number]): RosterEntry[] => [
  {
    id: uuid(cell.group, 1),
    slug: `${cell.prefix}-dev-1`,
    name: `${cell.label} Developer 1`,
    role: 'developer',
    team: cell.team,
  },
  {
    id: uuid(cell.group, 2),
    slug: `${cell.prefix}-dev-2`,
    name: `${cell.label} Developer 2`,
    role: 'developer',
    team: cell.team,
  },
  {
    id: uuid(cell.group, 3),
    slug: `${cell.prefix}-qa`,
    name: `${cell.label} QA`,
    role: 'qa',
    team: cell.team,
  },
  {
    id: uuid(cell.group, 4),
    slug: `${cell.prefix}-pm`,
    name: `${cell.label} PM`,
    role: 'cell_pm',
    team: cell.team,
  },
  {
    id: uuid(cell.group, 5),
    slug: `${cell.prefix}-doc`,
    name: `${cell.label} Documenter`,
    role: 'documenter',
    team: cell.team,
  },
  {
    id: uuid(cell.group, 6),
    slug: `${cell.prefix}-pr-reviewer`,
    name: `${cell.label} PR Reviewer`,
    role: 'pr_reviewer',
    team: cell.team,
  },
];

export const DEFAULT_COMPANY: readonly RosterEntry[] = [
  { id: uuid(0, 0), slug: 'system', name: 'System', role: 'system', team: 'system' },
  { id: uuid(0, 1), slug: 'ceo', name: 'CEO', role: 'ceo', team: 'board' },
  ...CELLS.flatMap(cellMembers),
  { id: uuid(4, 1), slug: 'main-pm', name: 'Main PM', role: 'main_pm', team: 'main_pm' },
  { id: uuid(4, 2), slug: 'product-owner', name: 'Product Owner', role: 'product_owner', team: 'board' },
  {
    id: uuid(4, 3),
    slug: 'head-marketing',
    name: 'Head of Marketing',
    role: 'head_marketing',
    team: 'board',
  },
  { id: uuid(4, 4), slug: 'auditor', name: 'Auditor', role: 'auditor', team: 'board' },
  { id: uuid(4, 5), slug: 'intake-1', name: 'Intake Interviewer', role: 'prompter', team: 'board' },
  { id: uuid(4, 6), slug: 'secretary-1', name: 'Secretary', role: 'secretary', team: 'board' },
  {
    id: uuid(4, 7),
    slug: 'pr-reviewer-1',
    name: 'PR Reviewer (root gate)',
    role: 'pr_reviewer',
    team: 'board',
  },
  {
    id: uuid(4, 8),
    slug: 'cell-pr-reviewer-2',
    name: 'PR Reviewer (cell overflow)',
    role: 'pr_reviewer',
    team: 'board',
  },
];

/** Looks up a default-company member by slug (for tests and fixtures). */
export function rosterMember(slug: string): RosterEntry {
  const entry = DEFAULT_COMPANY.find((a) => a.slug === slug);
  if (!entry) throw new Error(`no default agent "${slug}"`);
  return entry;
}
