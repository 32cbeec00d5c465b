/**
 * Tasks (`/tasks`): the toolbar (search, filters as chips, List | Kanban) over either the dense
 * list or the kanban. Every filter, the view and the page live in the query string, so a reload
 * or a shared link shows the same tasks.
 */
import { useSearchParams } from 'react-router';
import { FilterToolbar } from '../components/tasks/filter-toolbar';
import { filtersToParams, parseFilters, type TaskFilters, withFilters } from '../components/tasks/filters';
import { KanbanBoard } from '../components/tasks/kanban-board';
import { useLookups } from '../components/tasks/lookups';
import { TaskTable } from '../components/tasks/task-table';
import { Page } from '../components/ui/page';

export default function TasksPage() {
  const [params, setParams] = useSearchParams();
  const filters = parseFilters(params);
  const lookups = useLookups();
  const go = (next: TaskFilters) => setParams(filtersToParams(next));

  return (
    <Page title="Tasks">
      <FilterToolbar filters={filters} onChange={go} lookups={lookups} />
      {filters.view === 'kanban' ? (
        <KanbanBoard filters={filters} lookups={lookups} />
      ) : (
        <TaskTable
          filters={filters}
          lookups={lookups}
          onPage={(page) => go(withFilters(filters, { page }))}
        />
      )}
    </Page>
  );
}
