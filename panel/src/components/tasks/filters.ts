/**
 * The Tasks page's filters as they live in the URL query string, so a filtered view survives a
 * reload and can be shared: `state` (repeatable), `team`, `project` (id), `q` (text), `view`
 * (`list` default, or `kanban`) and `page` (list pages, from 1). Pure: parsed from and written to
 * URLSearchParams, unknown values dropped.
 */

import type { paths } from '../../api/schema';

type ApiState = NonNullable<NonNullable<paths['/api/tasks']['get']['parameters']['query']>['status']>[number];
type ApiTeam = NonNullable<NonNullable<paths['/api/tasks']['get']['parameters']['query']>['team']>;

/** The lifecycle states in lifecycle order (the server's kanban columns come in this order too). */
export const TASK_STATES = [
  'backlog',
  'pending',
  'claimed',
  'in_progress',
  'blocked',
  'paused',
  'verifying',
  'needs_revision',
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
  'awaiting_ceo_approval',
  'completed',
  'cancelled',
] as const satisfies readonly ApiState[];
export type TaskState = (typeof TASK_STATES)[number];

export const TEAMS = [
  'backend',
  'frontend',
  'ux_ui',
  'board',
  'main_pm',
  'system',
] as const satisfies readonly ApiTeam[];
export type Team = (typeof TEAMS)[number];

// Both lists are checked against the generated API types: a state or team the server adds fails typecheck here.
const everyState: Record<ApiState, true> = Object.fromEntries(TASK_STATES.map((s) => [s, true])) as Record<
  TaskState,
  true
>;
const everyTeam: Record<ApiTeam, true> = Object.fromEntries(TEAMS.map((t) => [t, true])) as Record<
  Team,
  true
>;
void everyState;
void everyTeam;

export type TaskView = 'list' | 'kanban';

export interface TaskFilters {
  states: TaskState[];
  team?: Team;
  project?: string;
  q?: string;
  view: TaskView;
  page: number;
}

const isState = (value: string): value is TaskState => (TASK_STATES as readonly string[]).includes(value);
const isTeam = (value: string): value is Team => (TEAMS as readonly string[]).includes(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseFilters(params: URLSearchParams): TaskFilters {
  const states = [...new Set(params.getAll('state').filter(isState))].sort(
    (a, b) => TASK_STATES.indexOf(a) - TASK_STATES.indexOf(b),
  );
  const team = params.get('team') ?? '';
  const project = params.get('project') ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    states,
    ...(isTeam(team) ? { team } : {}),
    ...(UUID.test(project) ? { project } : {}),
    ...(q ? { q } : {}),
    view: params.get('view') === 'kanban' ? 'kanban' : 'list',
    page: Number.isFinite(page) && page >= 1 ? page : 1,
  };
}

/** The query string of `filters` (defaults left out), in a stable order. */
export function filtersToParams(filters: TaskFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const state of filters.states) params.append('state', state);
  if (filters.team) params.set('team', filters.team);
  if (filters.project) params.set('project', filters.project);
  if (filters.q) params.set('q', filters.q);
  if (filters.view === 'kanban') params.set('view', 'kanban');
  if (filters.page > 1 && filters.view === 'list') params.set('page', String(filters.page));
  return params;
}

/** A filter change: any change but paging starts again at page 1. */
export function withFilters(filters: TaskFilters, change: Partial<TaskFilters>): TaskFilters {
  const next = { ...filters, ...change };
  if (!('page' in change)) next.page = 1;
  for (const key of ['team', 'project', 'q'] as const) if (!next[key]) delete next[key];
  return next;
}

export const hasFilters = (filters: TaskFilters): boolean =>
  filters.states.length > 0 || Boolean(filters.team || filters.project || filters.q);
