/** The task page's header: state badge, title, the full id (copy), project, assignee, the CEO's actions. */
import { Copy } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../ui/button';
import type { Lookups } from '../lookups';
import { StateBadge } from '../state-badge';
import { TaskActions } from './task-actions';
import type { Task } from './use-task';

export function TaskHeader({
  task,
  lookups,
  reviewInBar = false,
}: {
  task: Task;
  lookups: Lookups;
  /** The review actions are in the ReviewBar below `lg` (the Changes tab). */
  reviewInBar?: boolean;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(task.id);
      toast.success('Task id copied');
    } catch {
      toast.error(`Could not copy; the id is ${task.id}`);
    }
  };
  return (
    <header className="space-y-2">
      <p className="text-muted">
        <Link to="/tasks" className="text-accent underline">
          Tasks
        </Link>{' '}
        / <span className="font-mono text-xs">{task.id.slice(0, 8)}</span>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-col items-start gap-1.5 sm:flex-row sm:items-center sm:gap-2">
            <StateBadge status={task.status} />
            <h1 className="text-[22px] leading-tight font-semibold break-words">{task.title}</h1>
          </div>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted">
            <span className="inline-flex items-center gap-1">
              <span className="font-mono text-xs break-all text-text" data-testid="task-full-id">
                {task.id}
              </span>
              <Button size="sm" variant="ghost" onClick={copy} aria-label="Copy the task id">
                <Copy size={13} aria-hidden />
              </Button>
            </span>
            <span>
              project <span className="text-text">{lookups.project(task.project_id)}</span>
            </span>
            <span>
              assignee <span className="text-text">{lookups.agent(task.assigned_to)}</span>
            </span>
            <span>
              team <span className="text-text">{task.team.replace('_', ' ')}</span>
            </span>
          </p>
        </div>
        <TaskActions task={task} lookups={lookups} reviewInBar={reviewInBar} />
      </div>
    </header>
  );
}
