/**
 * Overview: the description, the acceptance criteria, the plan (read as a document) and facts —
 * among them the arm of each experiment the task is part of (which route its runs take).
 */
import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { EmptyState } from '../../ui/page';
import { ShortId } from '../../ui/short-id';
import { StructuredDocument } from '../../ui/structured-document';
import { RelativeTime } from '../../ui/time';
import type { Lookups } from '../lookups';
import type { Task } from './use-task';

export function OverviewTab({ task, lookups }: { task: Task; lookups: Lookups }) {
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <div className="min-w-0 space-y-5">
        <section aria-labelledby="t-description">
          <h2 id="t-description" className="mb-1 text-[15px] font-semibold">
            Description
          </h2>
          <p className="whitespace-pre-wrap break-words">{task.description}</p>
        </section>
        <section aria-labelledby="t-criteria">
          <h2 id="t-criteria" className="mb-1 text-[15px] font-semibold">
            Acceptance criteria
          </h2>
          <ol className="list-decimal space-y-1 pl-5">
            {task.acceptance_criteria.map((c) => (
              <li key={c.id} className="break-words">
                {c.text}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="t-plan">
          <h2 id="t-plan" className="mb-1 text-[15px] font-semibold">
            Plan
          </h2>
          {task.plan ? (
            <Plan plan={task.plan} />
          ) : (
            <EmptyState>No plan yet: the owner writes one when starting work.</EmptyState>
          )}
        </section>
      </div>
      <dl className="grid h-fit grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 rounded-lg border border-border bg-surface p-3 text-[13px]">
        <Fact label="Team">{task.team.replace('_', ' ')}</Fact>
        <Fact label="Type">
          {task.task_type} · {task.nature} · {task.complexity}
        </Fact>
        <Fact label="Priority">{task.priority}</Fact>
        <Fact label="Source">{task.source}</Fact>
        <Fact label="Claimant">{lookups.agent(task.active_claimant_id)}</Fact>
        <Fact label="Parent">{task.parent_task_id ? <ShortId id={task.parent_task_id} /> : 'root task'}</Fact>
        <Fact label="Revisions">{task.revision_count}</Fact>
        <Fact label="Created">
          <RelativeTime at={task.created_at} />
        </Fact>
        <Fact label="Updated">
          <RelativeTime at={task.updated_at} />
        </Fact>
        {task.stalled_reason && <Fact label="Stalled">{task.stalled_reason}</Fact>}
        <ExperimentArms taskId={task.id} />
      </dl>
    </div>
  );
}

/** "Experiment: developer arm B · lab · gpt-5" for each experiment that gave the task an arm. */
function ExperimentArms({ taskId }: { taskId: string }) {
  const arms = $api.useQuery('get', '/api/workforce/task-arms/{task_id}', {
    params: { path: { task_id: taskId } },
  });
  return (arms.data?.arms ?? []).map((given) => (
    <Fact key={given.experiment_id} label="Experiment">
      <Link to="/workforce" className="underline" data-testid="task-experiment-arm">
        {given.role.replaceAll('_', ' ')} arm {given.arm.toUpperCase()}
      </Link>{' '}
      <span className="break-all font-mono text-xs">
        {[given.route.cli, given.route.provider, given.route.model].filter(Boolean).join(' · ')}
      </span>
      {given.released && ' (stopped: back on the usual route)'}
    </Fact>
  ));
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** The plan as the planner wrote it, read as a document; who planned it and when underneath. */
function Plan({ plan }: { plan: Record<string, unknown> }) {
  return (
    <div className="space-y-2">
      <StructuredDocument document={plan} skip={['by', 'at']} />
      {typeof plan.by === 'string' && (
        <p className="text-[13px] text-muted">
          Planned by {plan.by}
          {typeof plan.at === 'string' && (
            <>
              {' '}
              <RelativeTime at={plan.at} />
            </>
          )}
        </p>
      )}
    </div>
  );
}
