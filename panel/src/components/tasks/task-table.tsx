/**
 * The Tasks list: a dense table (state, id, title, team, project, assignee, age) of one page of
 * GET /api/tasks under the URL's filters, newest first, with Previous / Next pages — on a phone a
 * list of cards, the title whole. Live: task events refetch it (invalidation.ts); it polls only
 * while the socket is down.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from 'react-router';
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePollInterval } from '../../live/live';
import { Button } from '../ui/button';
import { EmptyState, Loading } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { TableScroll } from '../ui/table-scroll';
import { RelativeTime } from '../ui/time';
import { hasFilters, type TaskFilters } from './filters';
import type { Lookups } from './lookups';
import { StateBadge } from './state-badge';

export const PAGE_SIZE = 50;

export function TaskTable({
  filters,
  onPage,
  lookups,
}: {
  filters: TaskFilters;
  onPage: (page: number) => void;
  lookups: Lookups;
}) {
  const refetchInterval = usePollInterval(15_000);
  const list = $api.useQuery(
    'get',
    '/api/tasks',
    {
      params: {
        query: {
          ...(filters.states.length ? { status: filters.states } : {}),
          ...(filters.team ? { team: filters.team } : {}),
          ...(filters.project ? { project_id: filters.project } : {}),
          ...(filters.q ? { q: filters.q } : {}),
          limit: PAGE_SIZE,
          offset: (filters.page - 1) * PAGE_SIZE,
        },
      },
    },
    { refetchInterval, placeholderData: keepPreviousData },
  );

  if (list.error) return <ProblemNote error={list.error} prefix="Could not load the tasks" />;
  if (!list.data) return <Loading what="tasks" />;
  const tasks = list.data.tasks;
  const hasNext = list.data.next_cursor !== null;
  if (tasks.length === 0 && filters.page === 1) {
    return (
      <EmptyState>
        {hasFilters(filters)
          ? 'No task matches these filters. Remove a chip above to widen the search.'
          : 'No tasks yet. Give the main PM a task (POST /api/tasks or `gaffer task create`), or run `gaffer demo` to watch the scripted company work.'}
      </EmptyState>
    );
  }
  const first = (filters.page - 1) * PAGE_SIZE + 1;

  return (
    <div className="space-y-2">
      <ul
        className="divide-y divide-border rounded-lg border border-border bg-surface md:hidden"
        data-testid="task-cards"
      >
        {tasks.map((task) => (
          <li key={task.id} className="space-y-1 px-3 py-2.5" data-testid={`task-card-${task.id}`}>
            <Link to={`/tasks/${task.id}`} className="block font-medium break-words hover:underline">
              {task.title}
            </Link>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
              <StateBadge status={task.status} />
              <ShortId id={task.id} />
              <span>{task.team.replace('_', ' ')}</span>
              <span>{lookups.project(task.project_id)}</span>
              <span>{lookups.agent(task.assigned_to)}</span>
              <RelativeTime at={task.updated_at} />
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <TaskTableRows tasks={tasks} lookups={lookups} />
      </div>
      <nav aria-label="Pages" className="flex items-center justify-between text-muted">
        <span data-testid="task-range">
          {tasks.length > 0 ? `${first}–${first + tasks.length - 1}` : 'No more tasks'} · page {filters.page}
        </span>
        <span className="flex gap-2">
          <Button size="sm" disabled={filters.page <= 1} onClick={() => onPage(filters.page - 1)}>
            Previous
          </Button>
          <Button size="sm" disabled={!hasNext} onClick={() => onPage(filters.page + 1)}>
            Next
          </Button>
        </span>
      </nav>
    </div>
  );
}

type TaskRow = paths['/api/tasks']['get']['responses'][200]['content']['application/json']['tasks'][number];

/** The wide screen's table of one page of tasks. */
function TaskTableRows({ tasks, lookups }: { tasks: TaskRow[]; lookups: Lookups }) {
  return (
    <TableScroll label="Tasks">
      <table className="w-full text-left text-[13px]" data-testid="task-table">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Id
            </th>
            <th scope="col" className="w-full px-3 py-2 font-medium">
              Title
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Team
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Project
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Assignee
            </th>
            <th scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
              Updated
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {tasks.map((task) => (
            <tr key={task.id} className="hover:bg-surface-2" data-testid={`task-row-${task.id}`}>
              <td className="px-3 py-1.5">
                <StateBadge status={task.status} />
              </td>
              <td className="px-3 py-1.5">
                <ShortId id={task.id} />
              </td>
              <td className="max-w-0 px-3 py-1.5">
                <Link
                  to={`/tasks/${task.id}`}
                  className="block truncate font-medium hover:underline"
                  title={task.title}
                >
                  {task.title}
                </Link>
              </td>
              <td className="px-3 py-1.5 whitespace-nowrap">{task.team.replace('_', ' ')}</td>
              <td className="px-3 py-1.5 whitespace-nowrap">{lookups.project(task.project_id)}</td>
              <td className="px-3 py-1.5 whitespace-nowrap">{lookups.agent(task.assigned_to)}</td>
              <td className="px-3 py-1.5 whitespace-nowrap text-muted">
                <RelativeTime at={task.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
