/**
 * The tasks behind one figure of one group, newest first, below the table: each links to its task
 * page, with who did it (and on which CLI and model), how it ended, its first-pass QA, rework and
 * cost. Above the list, who did them by agent — from a CLI or a model to its agents. Opening a list
 * brings it into view and moves focus to it.
 */
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../lib/format';
import { StateBadge } from '../tasks/state-badge';
import { Button } from '../ui/button';
import { EmptyState, Loading, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { TableScroll } from '../ui/table-scroll';
import { RelativeTime } from '../ui/time';
import {
  type Drill,
  type Filters,
  MEASURE_LABELS,
  type ScorecardTask,
  TASKS_LIMIT,
  useScorecardTasks,
} from './use-workforce';

const CELL = 'px-3 py-2 align-top';
const LINK = 'text-accent underline decoration-accent/40 underline-offset-2 hover:decoration-accent';

export function DrillTasks({
  filters,
  drill,
  groupLabel,
  agentSlug,
  onClose,
}: {
  filters: Filters;
  drill: Drill;
  groupLabel: string;
  agentSlug: (id: string) => string | undefined;
  onClose: () => void;
}) {
  const list = useScorecardTasks(filters, drill);
  const box = useRef<HTMLDivElement>(null);
  const opened = `${drill.measure}:${drill.key}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly opened list is brought into view.
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'start' });
    box.current?.focus({ preventScroll: true });
  }, [opened]);

  const tasks = list.data?.tasks ?? [];
  const title = `${groupLabel}: ${MEASURE_LABELS[drill.measure]}`;
  return (
    <div ref={box} tabIndex={-1} className="scroll-mt-4 outline-none" data-testid="drill">
      <Section
        title={title}
        description={
          list.data
            ? tasks.length >= TASKS_LIMIT
              ? `The ${TASKS_LIMIT} most recent, newest first.`
              : `${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'}, newest first.`
            : undefined
        }
      >
        <div className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <ByAgent tasks={tasks} agentSlug={agentSlug} />
            <Button size="sm" onClick={onClose} className="ml-auto">
              <X size={14} aria-hidden />
              Close the list
            </Button>
          </div>
          {list.error && <ProblemNote error={list.error} prefix="Could not load the tasks" />}
          {list.isPending && <Loading what="the tasks" />}
          {list.data && tasks.length === 0 && (
            <EmptyState>No task of {groupLabel} counts here in this period.</EmptyState>
          )}
          {tasks.length > 0 && <TaskList tasks={tasks} agentSlug={agentSlug} />}
        </div>
      </Section>
    </div>
  );
}

/** Who did the listed tasks: each agent with how many, most first. */
function ByAgent({
  tasks,
  agentSlug,
}: {
  tasks: readonly ScorecardTask[];
  agentSlug: (id: string) => string | undefined;
}) {
  const counts = new Map<string, number>();
  for (const task of tasks) {
    if (task.owner_agent_id) counts.set(task.owner_agent_id, (counts.get(task.owner_agent_id) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const agents = [...counts].sort((a, b) => b[1] - a[1]);
  return (
    <p className="min-w-0 text-muted" data-testid="drill-by-agent">
      By agent:{' '}
      {agents.map(([id, count], index) => {
        const slug = agentSlug(id);
        return (
          <span key={id}>
            {index > 0 && ' · '}
            {slug ? (
              <Link to={`/agents/${slug}`} className={`${LINK} font-mono text-xs`}>
                {slug}
              </Link>
            ) : (
              <ShortId id={id} />
            )}{' '}
            × {count}
          </span>
        );
      })}
    </p>
  );
}

const qaWords = (pass: boolean | null) => (pass === null ? '—' : pass ? 'yes' : 'no');

function TaskList({
  tasks,
  agentSlug,
}: {
  tasks: readonly ScorecardTask[];
  agentSlug: (id: string) => string | undefined;
}) {
  return (
    <TableScroll label="The tasks behind the figure">
      <table className="w-full text-left" data-testid="drill-tasks">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Task
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Ended
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Agent
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              CLI · model
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              First-pass QA
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Rework
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Cost
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border tabular-nums">
          {tasks.map((task) => {
            const slug = task.owner_agent_id ? agentSlug(task.owner_agent_id) : undefined;
            return (
              <tr key={task.task_id} data-testid={`drill-task-${task.task_id}`}>
                <td className={`${CELL} min-w-56`}>
                  <Link to={`/tasks/${task.task_id}`} className={`${LINK} font-medium break-words`}>
                    {task.title}
                  </Link>
                  <span className="mt-0.5 flex items-center gap-2 text-muted">
                    <ShortId id={task.task_id} />
                    <StateBadge status={task.status} />
                  </span>
                </td>
                <td className={`${CELL} whitespace-nowrap`}>
                  {task.end ?? '—'}
                  {task.ended_at && (
                    <span className="block text-xs text-muted">
                      <RelativeTime at={task.ended_at} />
                    </span>
                  )}
                </td>
                <td className={CELL}>
                  {slug ? (
                    <Link to={`/agents/${slug}`} className={`${LINK} font-mono text-xs`}>
                      {slug}
                    </Link>
                  ) : task.owner_agent_id ? (
                    <ShortId id={task.owner_agent_id} />
                  ) : (
                    <span className="text-muted">not known</span>
                  )}
                </td>
                <td className={`${CELL} font-mono text-xs`}>
                  {task.cli ?? '—'}
                  <span className="block text-muted">{task.model ?? '—'}</span>
                </td>
                <td className={CELL}>{qaWords(task.qa_first_pass)}</td>
                <td className={`${CELL} text-right`}>{task.rework_rounds}</td>
                <td className={`${CELL} text-right whitespace-nowrap`}>{formatUsd(task.cost_usd)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
