/**
 * The kanban: one column per lifecycle state, in lifecycle order (the server's order), each with
 * its true count and up to COLUMN_LIMIT cards, virtualised (kanban-column.tsx). Filters come from
 * the URL: team, project and text go to the server, chosen states pick the columns. Live: a
 * TASK_CHANGED frame refetches the board (invalidation.ts) and highlights the moved card briefly;
 * the board polls only while the socket is down.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { $api } from '../../api/client';
import { useLiveEvent, usePollInterval } from '../../live/live';
import { Loading } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { filtersToParams, type TaskFilters, withFilters } from './filters';
import { KanbanColumn } from './kanban-column';
import type { Lookups } from './lookups';

/** Cards per column fetched; the count is always the true total, the rest is one click away in the list. */
export const COLUMN_LIMIT = 200;
const HIGHLIGHT_MS = 2500;

export function KanbanBoard({ filters, lookups }: { filters: TaskFilters; lookups: Lookups }) {
  const refetchInterval = usePollInterval(10_000);
  const board = $api.useQuery(
    'get',
    '/api/kanban',
    {
      params: {
        query: {
          ...(filters.team ? { team: filters.team } : {}),
          ...(filters.project ? { project_id: filters.project } : {}),
          ...(filters.q ? { q: filters.q } : {}),
          include_terminal: false,
          limit: COLUMN_LIMIT,
        },
      },
    },
    { refetchInterval, placeholderData: keepPreviousData },
  );
  const highlighted = useHighlights();

  if (board.error) return <ProblemNote error={board.error} prefix="Could not load the board" />;
  if (!board.data) return <Loading what="the board" />;
  const columns = filters.states.length
    ? board.data.columns.filter((c) => (filters.states as string[]).includes(c.status))
    : board.data.columns;
  const listOf = (status: string) =>
    `/tasks?${filtersToParams(withFilters(filters, { view: 'list', states: [status as TaskFilters['states'][number]] }))}`;

  return (
    <section
      data-testid="kanban"
      data-ready="true"
      aria-label={`Kanban board, ${board.data.total} tasks`}
      className="-mx-4 flex gap-3 overflow-x-auto px-4 pb-2 sm:-mx-6 sm:px-6"
    >
      {columns.map((column) => (
        <KanbanColumn
          key={column.status}
          column={column}
          lookups={lookups}
          highlighted={highlighted}
          listHref={listOf(column.status)}
        />
      ))}
    </section>
  );
}

/** Ids of tasks that changed in the last moments (TASK_CHANGED frames), for a brief highlight. */
function useHighlights(): ReadonlySet<string> {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useLiveEvent('TASK_CHANGED', (frame) => {
    const id = typeof frame.task_id === 'string' ? frame.task_id : null;
    if (!id) return;
    clearTimeout(timers.current.get(id));
    setIds((current) => new Set(current).add(id));
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        setIds((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        });
      }, HIGHLIGHT_MS),
    );
  });
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);
  return ids;
}
