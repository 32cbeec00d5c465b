/**
 * Who may open a direct conversation with whom (reference C §2.4), as a pure function of the two
 * agents' roles and teams. A refusal names the chain the sender should go through instead
 * (`route_hint`), found as the shortest path of allowed hops through the org.
 *
 * The matrix governs initiation only: once a conversation exists, both participants may write in
 * it (subject to the CEO reply budget, see rules.ts).
 */
import type { Role } from '../../platform/http/auth/identity.js';
import { BOARD_ROLES, CELL_TEAMS, isCellTeam, PM_ROLES } from '../lifecycle/index.js';

/** The part of an agent the matrix looks at. */
export interface Party {
  role: Role;
  /** A delivery cell, an org team, or null. */
  team: string | null;
}

export type AccessDecision = { allowed: true } | { allowed: false; reason: string; route_hint: string };

/** Roles that take no direct messages and send none. */
export const NO_COMMS_ROLES = ['prompter', 'secretary'] as const satisfies readonly Role[];
/** Members of a delivery cell who may talk only within it. */
export const CELL_MEMBER_ROLES = ['developer', 'qa', 'documenter'] as const satisfies readonly Role[];

const has = (list: readonly string[], value: string) => list.includes(value);
const inCell = (party: Party): boolean => party.team !== null && isCellTeam(party.team);
const sameCell = (a: Party, b: Party): boolean => inCell(a) && a.team === b.team;

/** The direct rule alone: may `sender` initiate to `recipient`? No hints. */
export function mayInitiate(sender: Party, recipient: Party): boolean {
  if (recipient.role === 'ceo') return false;
  const to = recipient.role;
  switch (sender.role) {
    case 'ceo':
      return !has(NO_COMMS_ROLES, to) && to !== 'system';
    case 'product_owner':
    case 'head_marketing':
      return has(BOARD_ROLES, to) || to === 'auditor' || to === 'main_pm';
    case 'main_pm':
      return has(PM_ROLES, to) || has(BOARD_ROLES, to) || to === 'auditor';
    case 'cell_pm':
      return sameCell(sender, recipient) || has(PM_ROLES, to);
    case 'developer':
    case 'qa':
    case 'documenter':
      return sameCell(sender, recipient);
    case 'pr_reviewer':
      return has(PM_ROLES, to);
    default:
      // auditor never initiates; prompter, secretary and system have no A2A.
      return false;
  }
}

/** Whether `sender` may open a conversation with `recipient`; a refusal carries the route to take. */
export function mayMessage(sender: Party, recipient: Party): AccessDecision {
  if (mayInitiate(sender, recipient)) return { allowed: true };
  const from = label(sender);
  const to = label(recipient);
  if (has(NO_COMMS_ROLES, sender.role) || sender.role === 'system') {
    return refuse(`the ${sender.role} role has no agent-to-agent messaging`, 'none: this role has no A2A');
  }
  if (sender.role === 'auditor') {
    return refuse(
      'the auditor never initiates a conversation; it answers when written to',
      'auditor: report through the auditor gateway verbs, reply inside conversations opened with you',
    );
  }
  if (recipient.role === 'ceo') {
    const upToMainPm =
      sender.role === 'main_pm' || has(BOARD_ROLES, sender.role) ? [from] : pathTo(sender, MAIN_PM);
    return refuse(
      'nobody initiates to the CEO: escalate the task, and the CEO writes first',
      `${(upToMainPm ?? [from]).join(' → ')} → ceo (by task escalation; the CEO opens the conversation)`,
    );
  }
  if (has(NO_COMMS_ROLES, recipient.role) || recipient.role === 'system') {
    return refuse(`the ${recipient.role} takes no direct messages`, `none: ${to} has no A2A`);
  }
  const path = pathTo(sender, recipient);
  return refuse(
    `a ${sender.role} may not message a ${recipient.role}${inCell(recipient) ? ` of ${recipient.team}` : ''} directly`,
    path ? path.join(' → ') : `${from} → main_pm → ${to}`,
  );
}

const refuse = (reason: string, route_hint: string): AccessDecision => ({
  allowed: false,
  reason,
  route_hint,
});

/** `developer(backend)` for cell members, the bare role otherwise. */
function label(party: Party): string {
  return inCell(party) ? `${party.role}(${party.team})` : party.role;
}

const MAIN_PM: Party = { role: 'main_pm', team: 'main_pm' };

/** Every position of the org that can relay a message: each cell's roles, then the org-wide ones. */
const ORG: readonly Party[] = [
  ...CELL_TEAMS.flatMap((team) =>
    (['cell_pm', ...CELL_MEMBER_ROLES, 'pr_reviewer'] as const).map((role) => ({ role, team })),
  ),
  MAIN_PM,
  { role: 'product_owner', team: 'board' },
  { role: 'head_marketing', team: 'board' },
  { role: 'auditor', team: 'board' },
];

const samePosition = (a: Party, b: Party) =>
  a.role === b.role && (inCell(a) || inCell(b) ? a.team === b.team : true);

/**
 * The shortest chain of allowed hops from `sender` to `recipient`, as labels (both ends included),
 * or null when there is none. Breadth-first over the org positions; ties go to the first listed.
 */
export function pathTo(sender: Party, recipient: Party): string[] | null {
  const queue: { at: Party; path: string[] }[] = [{ at: sender, path: [label(sender)] }];
  const seen: Party[] = [sender];
  while (queue.length > 0) {
    const { at, path } = queue.shift()!;
    if (mayInitiate(at, recipient)) return [...path, label(recipient)];
    for (const next of ORG) {
      if (seen.some((s) => samePosition(s, next)) || !mayInitiate(at, next)) continue;
      seen.push(next);
      queue.push({ at: next, path: [...path, label(next)] });
    }
  }
  return null;
}
