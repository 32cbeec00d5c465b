/**
 * The task domain's own types: the stored row, the enums a task is declared with, who is acting
 * (an agent of the roster, resolved from the proven identity), and the service inputs. Inputs use
 * the API's snake_case field names, so a route hands its body to the service unchanged and an
 * engine writes the same fields the docs show.
 */
import { SYSTEM_ID, type Team } from '../../platform/http/auth/identity.js';
import type { Role, TaskStatus } from '../lifecycle/index.js';
import type { tasks } from './schema.js';

export type TaskRow = typeof tasks.$inferSelect;

export const TASK_TYPES = [
  'code',
  'documentation',
  'research',
  'planning',
  'design',
  'administrative',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_NATURES = ['technical', 'non_technical'] as const;
export type TaskNature = (typeof TASK_NATURES)[number];
export const COMPLEXITIES = ['low', 'medium', 'high'] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

/** Limits of a task's declaration (reference A §2.3). */
export const TASK_LIMITS = {
  titleMax: 200,
  descriptionMin: 20,
  descriptionMax: 20_000,
  criteriaMin: 1,
  criteriaMax: 7,
  criterionMax: 200,
  priorityMin: 0,
  priorityMax: 3,
  priorityDefault: 2,
  /** Root depth 0 … depth 3: four levels (umbrella → root → cell → dev leaf). */
  maxDepth: 3,
  sourceMax: 50,
  reasonMax: 2_000,
} as const;

/** Who performs an operation: an agent of the roster, as the caller's proven identity resolved it. */
export interface Actor {
  readonly id: string;
  readonly slug: string;
  readonly role: Role;
  /** The agent's team (null for org-wide agents). */
  readonly team: string | null;
}

/** The service's own identity, for engines and background work. */
export const SYSTEM_ACTOR: Actor = { id: SYSTEM_ID, slug: 'system', role: 'system', team: 'system' };

export interface CreateTaskInput {
  title: string;
  description: string;
  /** Criterion texts; ids are generated. */
  acceptance_criteria: string[];
  team: Team;
  task_type: TaskType;
  nature: TaskNature;
  complexity: Complexity;
  priority?: number;
  sequence?: number;
  /** pending (default) or backlog. */
  status?: Extract<TaskStatus, 'pending' | 'backlog'>;
  project_id?: string | null;
  product_id?: string | null;
  /** Per-cell project map (team → project id) of a coordination task spanning several repositories. */
  cell_projects?: Partial<Record<string, string>> | null;
  batch_id?: string | null;
  parent_task_id?: string | null;
  dependency_ids?: string[];
  intends_to_touch?: string[];
  adds_migration?: boolean;
  touches_shared?: boolean;
  /** Agent UUID or slug. */
  assigned_to?: string | null;
  budget_usd?: number | null;
  /** Service-only: which engine or person opened the task (default `manual`). */
  source?: string;
  /** Service-only: never dispatched, claimed or started by anyone (a release proposal). */
  held?: boolean;
  /** Service-only: opened by an engine that needs no human approval to start (`confirmed_by_human`). */
  confirmed?: boolean;
  /** Service-only: machine markers stored with the task (an engine's origination key). */
  markers?: Record<string, unknown>;
}

export interface UpdateTaskInput {
  title?: string;
  description?: string;
  acceptance_criteria?: string[];
  priority?: number;
  sequence?: number;
  intends_to_touch?: string[];
  adds_migration?: boolean;
  touches_shared?: boolean;
  assigned_to?: string | null;
  team?: Team;
  project_id?: string | null;
  dependency_ids?: string[];
  plan?: Record<string, unknown> | null;
  budget_usd?: number | null;
  /** CEO god mode: an audited override of the status. */
  status?: TaskStatus;
  /** Needed to override into a review or terminal state, or out of a terminal one. */
  force?: boolean;
  /** Why: recorded in the audit trail. */
  reason?: string;
}

export interface TaskListFilter {
  status?: TaskStatus[];
  team?: string;
  project_id?: string;
  /** Agent UUID or slug. */
  assigned_to?: string;
  parent_task_id?: string;
  source?: string;
  /** Text search: the title contains it, or the id starts with it (any case). */
  q?: string;
  limit?: number;
  offset?: number;
  /** Opaque cursor from a previous page's `next_cursor`. */
  cursor?: string;
}

export interface TransitionInput {
  reason?: string;
}
