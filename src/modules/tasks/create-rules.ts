/**
 * Pure rules of a task's declaration (reference A §2.3): exactly one target, target inheritance
 * from the parent, the depth limit, who may create tasks for which team, the PM-code invariants,
 * and stable acceptance-criterion ids.
 */
import { randomUUID } from 'node:crypto';
import type { FieldProblem } from '../../platform/http/errors.js';
import { type Role, teamMatches } from '../lifecycle/index.js';
import type { AcceptanceCriterion } from './schema.js';
import { TASK_LIMITS } from './types.js';

export interface DeclaredTarget {
  project_id?: string | null | undefined;
  product_id?: string | null | undefined;
  cell_projects?: Record<string, string | undefined> | null | undefined;
  batch_id?: string | null | undefined;
  parent_task_id?: string | null | undefined;
}

/** What a parent passes down to a child declared without a target. */
export interface ParentTarget {
  projectId: string | null;
  productId: string | null;
  cellProjects: Record<string, string>;
}

export type ResolvedTarget =
  | { kind: 'project'; projectId: string }
  | { kind: 'product'; productId: string }
  | { kind: 'cell_projects'; cellProjects: Record<string, string> }
  | { kind: 'umbrella' };

const definedEntries = (map: Record<string, string | undefined> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).filter((entry): entry is [string, string] => !!entry[1]));

/**
 * The task's target, or the problems with it. Exactly one of project, product or a non-empty cell
 * map; none at all only for a MegaTask umbrella (batch id, no parent) or a child, which inherits
 * its parent's: the parent's project, else the parent's cell-map entry for the child's team, else
 * the parent's product.
 */
export function resolveTarget(
  declared: DeclaredTarget,
  team: string,
  parent: ParentTarget | null,
): { target: ResolvedTarget } | { problems: FieldProblem[] } {
  const cells = definedEntries(declared.cell_projects);
  const given = [
    declared.project_id ? 'project_id' : null,
    declared.product_id ? 'product_id' : null,
    Object.keys(cells).length > 0 ? 'cell_projects' : null,
  ].filter((name): name is string => name !== null);
  if (given.length > 1) {
    return {
      problems: given.map((name) => ({
        field: `body.${name}`,
        message: `give exactly one target: project_id, product_id or cell_projects (got ${given.join(', ')})`,
      })),
    };
  }
  if (declared.project_id) return { target: { kind: 'project', projectId: declared.project_id } };
  if (declared.product_id) return { target: { kind: 'product', productId: declared.product_id } };
  if (given.length === 1) return { target: { kind: 'cell_projects', cellProjects: cells } };
  if (declared.batch_id && !declared.parent_task_id) return { target: { kind: 'umbrella' } };
  if (parent) {
    const inherited = parent.projectId ?? parent.cellProjects[team] ?? null;
    if (inherited) return { target: { kind: 'project', projectId: inherited } };
    if (parent.productId) return { target: { kind: 'product', productId: parent.productId } };
    return {
      problems: [
        {
          field: 'body.project_id',
          message: `the parent has no target for team ${team} to inherit; give project_id, product_id or cell_projects`,
        },
      ],
    };
  }
  return {
    problems: [
      {
        field: 'body.project_id',
        message:
          'a task needs a target: project_id, product_id or a non-empty cell_projects (or batch_id for an umbrella)',
      },
    ],
  };
}

/** Depth of a new child, or a problem when it would exceed the four-level hierarchy. */
export function childDepth(parentDepth: number | null): { depth: number } | { problem: FieldProblem } {
  const depth = parentDepth === null ? 0 : parentDepth + 1;
  if (depth > TASK_LIMITS.maxDepth) {
    return {
      problem: {
        field: 'body.parent_task_id',
        message: `the hierarchy is at most ${TASK_LIMITS.maxDepth + 1} levels deep; this parent is already at depth ${parentDepth}`,
      },
    };
  }
  return { depth };
}

/** Roles that may open tasks through the API (the system and engines go through the service). */
export const TASK_CREATOR_ROLES = [
  'ceo',
  'system',
  'main_pm',
  'cell_pm',
  'product_owner',
  'head_marketing',
  'auditor',
  'secretary',
  'prompter',
] as const satisfies readonly Role[];

/** Why `role` on `actorTeam` may not open a task for `team`, or null when it may. */
export function createRefusal(role: Role, actorTeam: string | null, team: string): string | null {
  if (!(TASK_CREATOR_ROLES as readonly string[]).includes(role)) return `a ${role} may not create tasks`;
  if (!teamMatches(role, actorTeam, team)) return `a ${role} may only create tasks for its own team`;
  return null;
}

/**
 * The PM-code invariants: a PM (cell or main) is never handed a fresh code task, and a main_pm-team
 * task is never a code task.
 */
export function pmCodeProblems(taskType: string, team: string, assigneeRole: Role | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (taskType === 'code' && (assigneeRole === 'cell_pm' || assigneeRole === 'main_pm')) {
    problems.push({ field: 'body.assigned_to', message: 'a PM may not be assigned a fresh code task' });
  }
  if (taskType === 'code' && team === 'main_pm') {
    problems.push({ field: 'body.task_type', message: 'a main_pm-team task cannot be a code task' });
  }
  return problems;
}

const newCriterionId = () => randomUUID().replaceAll('-', '');

/**
 * Criteria with ids: a text equal to one of `previous` keeps that criterion's id (each id used
 * once), any other text gets a fresh one.
 */
export function withCriterionIds(
  texts: readonly string[],
  previous: readonly AcceptanceCriterion[] = [],
  makeId: () => string = newCriterionId,
): AcceptanceCriterion[] {
  const unused = [...previous];
  return texts.map((raw) => {
    const text = raw.trim();
    const index = unused.findIndex((criterion) => criterion.text === text);
    if (index >= 0) {
      const [kept] = unused.splice(index, 1);
      return { id: kept!.id, text };
    }
    return { id: makeId(), text };
  });
}

export interface Declaration {
  title?: string | undefined;
  description?: string | undefined;
  acceptance_criteria?: readonly string[] | undefined;
  priority?: number | undefined;
  source?: string | undefined;
}

/**
 * The limits of a declaration, for callers that do not come through the HTTP schema (engines and
 * other modules call the service directly): title ≤200, description ≥20, 1–7 criteria of ≤200,
 * priority 0–3, source ≤50.
 */
export function declarationProblems(input: Declaration): FieldProblem[] {
  const L = TASK_LIMITS;
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field: `body.${field}`, message });
  if (input.title !== undefined && (input.title.trim() === '' || input.title.length > L.titleMax)) {
    add('title', `must be 1–${L.titleMax} characters`);
  }
  if (input.description !== undefined && input.description.trim().length < L.descriptionMin) {
    add('description', `must be at least ${L.descriptionMin} characters`);
  }
  const criteria = input.acceptance_criteria;
  if (criteria !== undefined) {
    if (criteria.length < L.criteriaMin || criteria.length > L.criteriaMax) {
      add('acceptance_criteria', `give ${L.criteriaMin}–${L.criteriaMax} acceptance criteria`);
    }
    criteria.forEach((text, index) => {
      if (text.trim() === '' || text.length > L.criterionMax) {
        add(`acceptance_criteria.${index}`, `must be 1–${L.criterionMax} characters`);
      }
    });
  }
  if (
    input.priority !== undefined &&
    !(Number.isInteger(input.priority) && input.priority >= L.priorityMin && input.priority <= L.priorityMax)
  ) {
    add('priority', `must be an integer ${L.priorityMin}–${L.priorityMax}`);
  }
  if (input.source !== undefined && (input.source.trim() === '' || input.source.length > L.sourceMax)) {
    add('source', `must be 1–${L.sourceMax} characters`);
  }
  return problems;
}
