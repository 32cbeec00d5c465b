/**
 * The Workforce page's state and data. Everything that shapes the view is in the query string, so a
 * link reproduces it: `period` (7d · 30d · 90d, default 30d), `by` (role · cli · model · agent ·
 * project, default role), `role`, `project`, the order (`sort`, `dir`) and the open list of tasks
 * behind a figure (`measure` with `group`, the group's key — empty for the group whose key is not
 * known). The scorecards follow the work: a TASK_CHANGED frame makes them stale a moment later (the
 * outcome rows are folded half a second after a change); polled every 60 s while the socket is down.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { $api, queryKey } from '../../api/client';
import type { paths } from '../../api/schema';
import { useLiveEvent, usePollInterval } from '../../live/live';
import { useLookups } from '../tasks/lookups';
import {
  type Direction,
  firstDirection,
  GROUPINGS,
  type Grouping,
  type Names,
  SORTS,
  type SortKey,
} from './format';

export const PERIODS = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export const GROUPING_LABELS: Record<Grouping, string> = {
  role: 'Role',
  cli: 'CLI',
  model: 'Model',
  agent: 'Agent',
  project: 'Project',
};

export type ScorecardsView =
  paths['/api/workforce/scorecards']['get']['responses'][200]['content']['application/json'];
export type ScorecardTask =
  paths['/api/workforce/scorecards/tasks']['get']['responses'][200]['content']['application/json']['tasks'][number];
export type Measure = NonNullable<
  NonNullable<paths['/api/workforce/scorecards/tasks']['get']['parameters']['query']>['measure']
>;

export const MEASURES: readonly Measure[] = [
  'tasks',
  'first_pass_qa',
  'qa_failed_first',
  'reworked',
  'with_findings',
  'merged_roots',
  'accepted',
  'failed_on_start',
];

/** What the tasks behind each measure are, for the list's heading. */
export const MEASURE_LABELS: Record<Measure, string> = {
  tasks: 'every task that ended',
  first_pass_qa: 'passed QA the first time',
  qa_failed_first: 'failed QA the first time',
  reworked: 'sent back at least once',
  with_findings: 'with findings',
  merged_roots: 'merged root tasks',
  accepted: 'accepted subtasks',
  failed_on_start: 'with a run that failed on start',
};

export interface Filters {
  period: Period;
  by: Grouping;
  role: string | null;
  projectId: string | null;
}

export interface Drill {
  measure: Measure;
  /** The group's key; null: the group whose key is not known. */
  key: string | null;
}

const DEFAULT_PERIOD: Period = '30d';
const DEFAULT_BY: Grouping = 'role';

export function useWorkforceParams() {
  const [search, setSearch] = useSearchParams();
  const period = PERIODS.find((p) => p.value === search.get('period'))?.value ?? DEFAULT_PERIOD;
  const by = (GROUPINGS as readonly string[]).includes(search.get('by') ?? '')
    ? (search.get('by') as Grouping)
    : DEFAULT_BY;
  const filters: Filters = {
    period,
    by,
    role: search.get('role') || null,
    projectId: search.get('project') || null,
  };
  const asked = search.get('sort');
  const sort: SortKey = (SORTS as readonly string[]).includes(asked ?? '') ? (asked as SortKey) : 'tasks';
  const dirParam = search.get('dir');
  const direction: Direction = dirParam === 'asc' || dirParam === 'desc' ? dirParam : firstDirection(sort);
  const measure = search.get('measure');
  const drill: Drill | null =
    measure && (MEASURES as readonly string[]).includes(measure) && search.has('group')
      ? { measure: measure as Measure, key: search.get('group') || null }
      : null;

  /** Sets (a string) or removes (null) each named parameter, keeping the others. */
  const update = (changes: Record<string, string | null>) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null) next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: true },
    );

  const sortTo = (key: SortKey, dir: Direction) =>
    update({
      sort: key === 'tasks' && dir === 'desc' ? null : key,
      dir: dir === firstDirection(key) ? null : dir,
    });

  return {
    filters,
    sort,
    direction,
    drill,
    setPeriod: (next: Period) => update({ period: next === DEFAULT_PERIOD ? null : next }),
    /** A new grouping: the open list named a group of the old one, so it closes. */
    setBy: (next: Grouping) => update({ by: next === DEFAULT_BY ? null : next, measure: null, group: null }),
    /** A column's order outright (the defaults — most tasks first — leave the URL). */
    sortTo,
    /** A header's click: that column in its first direction, or the other way round if in force. */
    sortBy: (key: SortKey) =>
      sortTo(key, key === sort ? (direction === 'asc' ? 'desc' : 'asc') : firstDirection(key)),
    /** From a role or a project to the agents who did its tasks. */
    showAgents: (filter: { role: string } | { project: string }) =>
      update({ by: 'agent', ...filter, measure: null, group: null }),
    openDrill: (next: Drill) => update({ measure: next.measure, group: next.key ?? '' }),
    closeDrill: () => update({ measure: null, group: null }),
  };
}

const query = (filters: Filters) => ({
  period: filters.period,
  by: filters.by,
  ...(filters.role ? { role: filters.role } : {}),
  ...(filters.projectId ? { project_id: filters.projectId } : {}),
});

/** The outcome rows are folded this long after a task moves (the server's keeper waits 500 ms). */
const AFTER_FOLD_MS = 1_500;
const POLL_MS = 60_000;

/**
 * Marks the scorecards stale once task moves pause for a moment (a burst of moves is one refetch,
 * after its last fold).
 */
function useRefetchOnTaskMoves() {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvent('TASK_CHANGED', () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      for (const path of ['/api/workforce/scorecards', '/api/workforce/scorecards/tasks'] as const)
        void client.invalidateQueries({ queryKey: queryKey('get', path) });
    }, AFTER_FOLD_MS);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

export function useScorecards(filters: Filters) {
  useRefetchOnTaskMoves();
  return $api.useQuery(
    'get',
    '/api/workforce/scorecards',
    { params: { query: query(filters) } },
    { refetchInterval: usePollInterval(POLL_MS) },
  );
}

/** How many tasks a list shows at most. */
export const TASKS_LIMIT = 100;

export function useScorecardTasks(filters: Filters, drill: Drill | null) {
  return $api.useQuery(
    'get',
    '/api/workforce/scorecards/tasks',
    {
      params: {
        query: {
          ...query(filters),
          ...(drill?.key != null ? { key: drill.key } : {}),
          measure: drill?.measure ?? 'tasks',
          limit: TASKS_LIMIT,
        },
      },
    },
    { enabled: drill !== null },
  );
}

/** Agents by slug and projects by name (the tasks pages' lookups: cached for the page's life). */
export function useNames() {
  const { agents, projects } = useLookups();
  return useMemo(() => {
    const names: Names = {
      agents: new Map(agents.map((a) => [a.id, a.slug])),
      projects: new Map(projects.map((p) => [p.id, p.name])),
    };
    const roles = [...new Set(agents.map((a) => a.role))].sort();
    return { names, roles, projects };
  }, [agents, projects]);
}
